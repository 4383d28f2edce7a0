"""A log file to attach to a problem report, with every secret taken out.

`install_file_log()` adds a rotating file (about 1 MB, five older files kept) to the
root logger; `RedactingFilter` goes on that handler and on every other handler the
app installs, so a token, password or Authorization header never reaches a log,
whichever library logged it and whether in the message, its arguments or the text of
an exception. Besides the patterns, the exact values of the secrets this process
knows (`remember_secret()`: the password typed, the session's token) are taken out
wherever they stand, and every web address loses its query, which often carries a
signature, and any user name or password before its host. A log file that cannot be
created is skipped with a warning: logging is never a reason for the app not to start.

The app opens the file once its sign-in window has painted; `hold_records()` keeps
what is logged before then, and `install_file_log()` writes it to the file first.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
from collections import deque
from pathlib import Path
from urllib.parse import quote, quote_plus

from cardviewer.paths import log_dir, private_folder

log = logging.getLogger(__name__)

LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
LOG_FILE_NAME = "cardviewer.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 5
REDACTED = "[redacted]"
HELD_RECORDS = 1000
"""At most this many records wait for the log file (the newest are kept)."""
MIN_SECRET_LENGTH = 6
"""Shorter values are not looked for by value (the patterns still apply): a word that
short turns up in ordinary log text, such as the demo's password "demo" in module names."""

# Where a value follows a name, any quoting: JSON "…", an escaped \"…\" inside a
# JSON string, Python '…', or bare up to the next separator (form and query data).
_VALUE = (
    r"""(?!\[redacted\])(?:\\"(?:(?!\\").)*\\"|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'"""
    r"""|[^\s&,;}\]'"]+)"""
)


@functools.cache
def _redactions() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The patterns and their replacements, compiled when the first text is redacted.

    Compiled at import, they would be work done before the sign-in window paints.
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
        # A user name or password before a web address's host: https://[redacted]@host.
        (
            re.compile(r"""(\bhttps?:(?:\\?/){2})[^\s/\\?#@"'<>]*@""", re.IGNORECASE),
            rf"\g<1>{REDACTED}@",
        ),
        # A web address's query and fragment, which may carry a signature or a token. The
        # slashes may be escaped, as PHP writes JSON: https:\/\/host\/path.
        (
            re.compile(
                r"""(\bhttps?:(?:\\?/){2}(?:[^\s?#"'<>\\]|\\/)*)"""
                r"""[?#](?:[^\s"'<>\\]|\\(?!["']))*""",
                re.IGNORECASE,
            ),
            r"\g<1>",
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
_secrets: frozenset[str] = frozenset()
_secret_pattern: re.Pattern[str] | None = None
_secrets_lock = threading.Lock()


def remember_secret(value: str | None) -> None:
    """Take `value` out of everything logged from now on, wherever it appears.

    For a password or token the process has come to know: a server may echo it under a
    name no pattern expects, or bare in a message. It is looked for as written and as
    JSON, a Python literal and a URL would escape it. Values shorter than
    `MIN_SECRET_LENGTH` are left to the patterns. Remembered until the process ends: a
    token signed out of may still come back in an answer.
    """
    global _secrets, _secret_pattern
    if not value or len(value) < MIN_SECRET_LENGTH:
        return
    forms = {form for form in _written_forms(value) if len(form) >= MIN_SECRET_LENGTH}
    with _secrets_lock:
        known = _secrets | forms
        if known == _secrets:
            return
        # Longest first, so that a form is replaced whole rather than a part of it.
        alternatives = sorted(known, key=len, reverse=True)
        _secret_pattern = re.compile("|".join(map(re.escape, alternatives)))
        _secrets = known


def forget_secrets() -> None:
    """Stop looking for the remembered values (for tests that need a clean slate)."""
    global _secrets, _secret_pattern
    with _secrets_lock:
        _secrets, _secret_pattern = frozenset(), None


def _written_forms(value: str) -> set[str]:
    """`value` as a log may show it: plain, in JSON or a URL, and each of those inside a
    str or bytes literal (an answer's body is logged as one)."""
    forms = {
        value,
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        quote(value, safe=""),
        quote_plus(value, safe=""),
    }
    literals = {repr(form)[1:-1] for form in forms}
    literals |= {repr(form.encode("utf-8", "backslashreplace"))[2:-1] for form in forms}
    return forms | literals


def redact(text: str) -> str:
    """`text` without secrets: tokens, passwords, Authorization values and the remembered
    values replaced by "[redacted]", and web addresses without their query."""
    pattern = _secret_pattern
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
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
        # Here: it imports `logging.handlers`, and the file opens after the first paint.
        from cardviewer.private_log_file import PrivateRotatingFileHandler

        folder = private_folder(directory) if directory is not None else log_dir()
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
