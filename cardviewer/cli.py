"""`cardviewer export`: the export without a window, for scheduled jobs and scripts.

    cardviewer export --server URL --email E --space ID [--all] [--with-emails]
                      [--page N] [--format csv|xlsx] [--delimiter , | ; | tab] -o FILE

The password comes from the `CARDVIEWER_PASSWORD` environment variable, else from a
prompt when a person is at the terminal; without either, the session the app saved
("Keep me signed in") is used when it is for the same server. The exit code says what
happened, so that a script can act on it (see `ExitCode`). Progress goes to stderr
when stderr is a terminal; the password and token are never printed, not even with
`-v`: stderr gets the window's redaction (`log_setup.RedactingFilter`), which also
looks for the exact password and token, because a scheduled job keeps its stderr.
A server address with a user name or password in it is refused without repeating it.
The file is written at the name given, never another: a name whose suffix says the
other format than `--format` is refused. CSV cells are separated as the window
separates them (the Preferences' choice, else the locale's rule) unless `--delimiter`
says otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import enum
import getpass
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from cardviewer import APP_NAME, __version__
from cardviewer.api import CardsClient
from cardviewer.api.address import normalize_server_url
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
from cardviewer.api.retry import WaitUnit, wait_to_tell
from cardviewer.log_setup import RedactingFilter, redact, remember_secret
from cardviewer.services.card_export import ExportFormat, write_cards
from cardviewer.services.csv_delimiter import (
    COMMA,
    SEMICOLON,
    TAB,
    delimiter_for_decimal_point,
    system_decimal_point,
)
from cardviewer.services.file_errors import explain_write_failure
from cardviewer.services.session_store import SessionStore, StoredSession
from cardviewer.services.settings import Settings
from cardviewer.services.site_config import load_site_config
from cardviewer.services.space_export import export_space
from cardviewer.services.space_fetch import DEFAULT_CONCURRENCY, FetchProgress

log = logging.getLogger(__name__)

PASSWORD_VARIABLE = "CARDVIEWER_PASSWORD"
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
FORMATS = {"csv": ExportFormat.CSV, "xlsx": ExportFormat.XLSX}
FORMAT_NAMES = {ExportFormat.CSV: "a CSV file", ExportFormat.XLSX: "an Excel workbook"}
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
    """Wrong or missing arguments, or no way to get a password."""
    SIGN_IN = 3
    """Wrong e-mail or password, or the saved session has ended."""
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


class UsageError(Exception):
    """Arguments that cannot work together; the text says why."""


class SessionEnded(Exception):
    """The saved session has ended and there is no password to sign in again with."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardviewer export",
        description="Export the cards of a space to a CSV or Excel file, without a window.",
        epilog=f"The password is read from {PASSWORD_VARIABLE}, else asked for at the "
        "terminal, else the session saved by the app is used. Exit codes: "
        + ", ".join(f"{code.value} {code.name.lower().replace('_', ' ')}" for code in ExitCode),
    )
    parser.add_argument(
        "--server", help="server address (default: the saved session's, else the site file's)"
    )
    parser.add_argument("--email", help="e-mail address to sign in with")
    parser.add_argument("--space", required=True, help="id of the space to export")
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--all", action="store_true", help="export every page of the space")
    scope.add_argument("--page", type=int, default=1, help="export this page (default 1)")
    parser.add_argument("--with-emails", action="store_true", help="include e-mail addresses")
    parser.add_argument(
        "--format",
        choices=list(FORMATS),
        help="file type (default: from the file name: .xlsx is Excel, anything else CSV); "
        "the file is always written at the name given, so a name ending in the other "
        "type's suffix is refused",
    )
    parser.add_argument(
        "--delimiter",
        choices=list(DELIMITERS),
        help="separator of CSV cells: ',', ';' or 'tab' (default: the one chosen in the "
        "app's Preferences, else ';' where the system's locale writes decimals with a "
        "comma, as Excel expects there, else ',')",
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help="pages fetched at once with --all (default %(default)s)",
    )
    parser.add_argument("-o", "--output", required=True, type=Path, help="file to write")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debugging details")
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    return parser


@dataclass(frozen=True)
class Output:
    """The file to write, exactly as named, and how."""

    path: Path
    export_format: ExportFormat
    delimiter: str
    """Separates CSV cells; unused for a workbook."""


def output(args: argparse.Namespace) -> Output:
    """The file `-o` names, in the format and with the separator asked for.

    Raises `UsageError` when the name's suffix names the other format than `--format`
    (writing another name, or a workbook called `.csv`, would surprise), and for
    `--delimiter` with a workbook.
    """
    path: Path = args.output
    named = ExportFormat.named_by(path)
    export_format = FORMATS[args.format] if args.format else named or ExportFormat.CSV
    if named is not None and named is not export_format:
        raise UsageError(
            f"{path.name} is the name of {FORMAT_NAMES[named]}, but --format {args.format} "
            f"asks for {FORMAT_NAMES[export_format]}: give a name ending in "
            f"{export_format.value}, or leave out --format"
        )
    if export_format is ExportFormat.XLSX and args.delimiter is not None:
        raise UsageError("--delimiter is for CSV files; an Excel workbook has no separator")
    return Output(path, export_format, csv_delimiter(args))


def csv_delimiter(args: argparse.Namespace) -> str:
    """`--delimiter`, else the window's: the Preferences' choice, else the locale's rule."""
    if args.delimiter is not None:
        return DELIMITERS[args.delimiter]
    chosen = Settings.load().csv_delimiter
    return chosen or delimiter_for_decimal_point(system_decimal_point())


def main(argv: Sequence[str] | None = None, *, stderr: TextIO | None = None) -> int:
    """Run the export; returns the exit code."""
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    with _logging_to(err, verbose=args.verbose):
        if args.page < 1 or args.concurrency < 1:
            print("error: --page and --concurrency must be 1 or more", file=err)
            return ExitCode.USAGE
        try:
            return asyncio.run(_export(args, err))
        except KeyboardInterrupt:
            print("Interrupted; nothing was written.", file=err)
            return ExitCode.INTERRUPTED


@contextlib.contextmanager
def _logging_to(err: TextIO, *, verbose: bool) -> Iterator[None]:
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


async def _export(args: argparse.Namespace, err: TextIO) -> int:
    try:
        target = output(args)
        client = await _signed_in_client(args, err)
    except UsageError as exc:
        print(f"error: {exc}", file=err)
        return ExitCode.USAGE
    except SessionEnded as exc:
        print(f"error: {exc}", file=err)
        return ExitCode.SIGN_IN
    except CardViewerError as exc:
        return _failed(exc, err)
    async with client:
        try:
            count = await _fetch_and_write(client, args, target, err)
        except CardViewerError as exc:
            return _failed(exc, err)
        except OSError as exc:
            log.debug("writing %s failed: %r", target.path, exc)
            print(f"Cannot write {target.path}: {explain_write_failure(exc)}", file=err)
            return ExitCode.WRITE
    if err.isatty():
        print(f"Exported {count} cards to {target.path}", file=err)
    return ExitCode.OK


async def _signed_in_client(args: argparse.Namespace, err: TextIO) -> CardsClient:
    if args.server:
        # Checked first: an address with a password in it is neither used nor repeated.
        normalize_server_url(args.server)
    password = os.environ.get(PASSWORD_VARIABLE)
    remember_secret(password)
    saved = _saved_session(args)
    server = args.server or (saved.server_url if saved is not None else None) or _site_server()
    if not server:
        raise UsageError("--server is needed (no saved session or site file to take it from)")
    email = args.email
    if password is None and saved is not None and (email in (None, saved.email)):
        if not saved.is_expired():
            log.debug("using the saved session for %s", saved.email)
            remember_secret(saved.access_token)
            return CardsClient(saved.server_url, token=saved.access_token)
        if not sys.stdin.isatty():
            raise SessionEnded(
                f"your saved session for {saved.email} has ended; sign in again "
                f"(set {PASSWORD_VARIABLE}, or run at a terminal to be asked)"
            )
        email = saved.email  # asked for the password of the account that was signed in
    if not email:
        raise UsageError("--email is needed to sign in")
    if password is None:
        if not sys.stdin.isatty():
            raise UsageError(
                f"no password: set {PASSWORD_VARIABLE} or run at a terminal to be asked"
            )
        password = getpass.getpass(f"Password for {email}: ", stream=err)
        remember_secret(password)
    client = CardsClient(server)
    try:
        session = await client.login(email, password)
    except BaseException:
        await client.aclose()
        raise
    remember_secret(session.access_token)
    return client


def _site_server() -> str | None:
    """The server an administrator preset for this computer (see `site_config`)."""
    return load_site_config().server_url


def _saved_session(args: argparse.Namespace) -> StoredSession | None:
    """The app's saved session for the server asked for, if any; it may have ended."""
    stored = SessionStore().load()
    if stored is None:
        return None
    if args.server:
        try:
            if normalize_server_url(args.server) != stored.server_url:
                return None
        except InvalidInput:
            return None
    return stored


async def _fetch_and_write(
    client: CardsClient, args: argparse.Namespace, target: Output, err: TextIO
) -> int:
    """Fetch the page asked for, or every page, and write their cards to `target`.

    Nothing is written until every page is in, as in the window's Export All, so a
    failed fetch leaves any earlier file as it was.
    """

    async def fetch(number: int) -> CardPage:
        return await client.list_cards(args.space, number, with_emails=args.with_emails)

    if args.all:
        show = err.isatty()

        def progress(done: FetchProgress) -> None:
            if show:
                print(
                    f"\rPage {done.pages_done} of {done.pages_total}, {done.cards} cards",
                    end="",
                    file=err,
                    flush=True,
                )

        def writing(count: int) -> None:
            if show:
                print(file=err)

        return await export_space(
            fetch,
            target.path,
            with_emails=args.with_emails,
            title=args.space,
            delimiter=target.delimiter,
            concurrency=args.concurrency,
            on_progress=progress,
            on_writing=writing,
            export_format=target.export_format,
        )
    page = await fetch(args.page)
    return await write_cards(
        target.path,
        list(page.cards),
        with_emails=args.with_emails,
        title=args.space,
        delimiter=target.delimiter,
        export_format=target.export_format,
    )


def _failed(exc: CardViewerError, err: TextIO) -> int:
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
