"""A log file to attach to a problem report, with every secret taken out.

`install_file_log()` adds a rotating file (about 1 MB, five older files kept) to the
root logger; `RedactingFilter` goes on that handler and on every other handler the
app installs, so a token, password or Authorization header never reaches a log,
whichever library logged it and whether in the message, its arguments or the text of
an exception. A log file that cannot be created is skipped with a warning: logging is
never a reason for the app not to start.

The app opens the file once its sign-in window has painted; `hold_records()` keeps
what is logged before then, and `install_file_log()` writes it to the file first.
"""

from __future__ import annotations

import functools
import logging
import re
from collections import deque
from pathlib import Path

from cardviewer.paths import log_dir

log = logging.getLogger(__name__)

LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
LOG_FILE_NAME = "cardviewer.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 5
REDACTED = "[redacted]"
HELD_RECORDS = 1000
"""At most this many records wait for the log file (the newest are kept)."""

# Where a value follows a name, any quoting: JSON "…", an escaped \"…\" inside a
# JSON string, Python '…', or bare up to the next separator (form and query data).
_VALUE = (
    r"""(?!\[redacted\])(?:\\"(?:(?!\\").)*\\"|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""
    r"""|[^\s&,;}\]'"]+)"""
)


@functools.cache
def _redactions() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The patterns and their replacements, compiled when the first text is redacted.

    Compiling them costs about a millisecond, which the start spends before the sign-in
    window paints if it happens at import.
    """
    return (
        # Authorization: <anything>, in a header line, JSON, a dict or httpcore's byte pairs.
        (
            re.compile(
                r"""(\b(?:proxy-)?authorization\\?["']?\s*[:=,]\s*"""
                r"""(?!(?-i:b)?\\?["']?\[redacted\])(?-i:b)?\\?["']?)"""
                r"""[^\s"'\\][^\r\n"'\\]*""",
                re.IGNORECASE,
            ),
            rf"\g<1>{REDACTED}",
        ),
        (re.compile(r"\b(Bearer\s+)[A-Za-z0-9\-._~+/]+=*", re.IGNORECASE), rf"\g<1>{REDACTED}"),
        # A JWT: base64url header and claims, both JSON objects ("eyJ" is '{"'), signature;
        # starting only after a non-base64 character keeps the search linear.
        (
            re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*"),
            REDACTED,
        ),
        # "password": "…", password=…, 'access_token': '…', refresh_token=… and the like.
        # A name starts only where no name character precedes, which keeps the search
        # linear in long base64 text (`\b` would try again after every "-").
        (
            re.compile(
                r"""((?<![\w-])[\w-]*(?:password|passwd|token|secret)\\?["']?\s*[:=]\s*)"""
                + _VALUE,
                re.IGNORECASE,
            ),
            rf"\g<1>{REDACTED}",
        ),
    )


_exception_formatter = logging.Formatter()
_file_handler: logging.FileHandler | None = None
_held: HeldRecords | None = None


def redact(text: str) -> str:
    """`text` with tokens, passwords and Authorization values replaced by "[redacted]"."""
    for pattern, replacement in _redactions():
        text = pattern.sub(replacement, text)
    return text


class RedactingFilter(logging.Filter):
    """Takes secrets out of a record before its handler writes it.

    The record is changed in place: the message is merged with its arguments and
    redacted, and the exception and stack text are formatted and redacted, so any
    handler that sees the record later gets the redacted text as well.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            # logging would print msg and args raw on stderr; print them redacted here.
            message = f"{record.msg} (arguments: {record.args!r})"
        record.msg = redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = _exception_formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class HeldRecords(logging.Handler):
    """Keeps records, redacted, until the log file is open (`hold_records()`)."""

    def __init__(self, capacity: int = HELD_RECORDS) -> None:
        super().__init__()
        self.records: deque[logging.LogRecord] = deque(maxlen=capacity)
        self.addFilter(RedactingFilter())

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def hold_records() -> None:
    """Keep what is logged from now on for the log file `install_file_log()` opens later."""
    global _held
    _drop_held()
    _held = HeldRecords()
    logging.getLogger().addHandler(_held)


def _drop_held() -> HeldRecords | None:
    global _held
    held, _held = _held, None
    if held is not None:
        logging.getLogger().removeHandler(held)
    return held


def install_file_log(
    directory: Path | None = None,
    *,
    max_bytes: int = MAX_BYTES,
    backup_count: int = BACKUP_COUNT,
) -> Path | None:
    """Log to `directory`/cardviewer.log (default: the platform's log folder).

    Returns the file's path, or None when it cannot be written (a warning says why).
    Records held since `hold_records()` are written first. Installing again replaces
    the earlier file handler.
    """
    global _file_handler
    held = _drop_held()
    remove_file_log()
    try:
        from cardviewer.private_log_file import PrivateRotatingFileHandler

        folder = directory if directory is not None else log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handler = PrivateRotatingFileHandler(
            folder / LOG_FILE_NAME,
            maxBytes=max_bytes,
            backupCount=backup_count,
            encoding="utf-8",
            errors="backslashreplace",
        )
    except OSError as error:
        log.warning("Not writing a log file: %s", error)
        return None
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RedactingFilter())
    for record in held.records if held is not None else ():
        if record.levelno >= handler.level:
            handler.handle(record)
    logging.getLogger().addHandler(handler)
    _file_handler = handler
    return Path(handler.baseFilename)


def remove_file_log() -> None:
    """Stop logging to the file (at shutdown, or after a test); none installed is fine.

    Records still held for a file that was never opened are dropped.
    """
    global _file_handler
    _drop_held()
    handler, _file_handler = _file_handler, None
    if handler is not None:
        logging.getLogger().removeHandler(handler)
        handler.close()


def log_file_path() -> Path | None:
    """The file the log is being written to, or None when there is none."""
    return Path(_file_handler.baseFilename) if _file_handler is not None else None
