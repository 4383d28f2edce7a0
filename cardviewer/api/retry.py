"""When a failed request is worth sending again, and how long to wait before it.

Only idempotent reads are retried: sending a login twice could lock an account or
create two sessions. A retry waits with exponential backoff and full jitter, so that
many clients hit by the same outage do not return in step; when the server says how
long to wait (`Retry-After` on 429 and 503) that is what the client waits, unless it
is longer than a person should stare at a spinner: then the error is raised at once,
carrying `retry_after`, so the UI can say when to try again.
"""

from __future__ import annotations

import asyncio
import enum
import math
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import NamedTuple

import httpx

from cardviewer.api.errors import (
    ApiError,
    CardViewerError,
    NetworkError,
    TlsError,
    UnreadableAnswer,
)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Answers of an overloaded, failing or restarting server (or its gateway) that may pass
by themselves. A read is safe to send again; a sign-in is never retried (`NO_RETRY`)."""

RETRY_AFTER_STATUSES = frozenset({429, 503})
"""Answers whose `Retry-After` header is honoured."""

TRANSIENT_TRANSPORT_ERRORS: tuple[type[Exception], ...] = (
    httpx.NetworkError,  # cannot connect, connection reset or dropped
    httpx.TimeoutException,
    httpx.RemoteProtocolError,  # closed without an answer, or half an answer
)
"""Transport failures a second try may not meet; TLS and proxy refusals are not among them."""

DELAY_SECONDS = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})?")
"""`Retry-After` in seconds: digits (a fraction is tolerated); no sign, exponent or `inf`."""

MAX_BACKOFF_EXPONENT = 64  # keeps `base_delay * 2**n` a finite float

SAY_WAIT_FROM = 2.0
"""Seconds from which the server's wait is worth telling; below, "a moment" says it."""
SAY_MINUTES_FROM = 120.0
"""Seconds from which the wait is told in minutes rather than seconds."""


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently an idempotent request is tried.

    `attempts` counts every try including the first, so `RetryPolicy(attempts=1)`
    never retries. `sleep` and `jitter` are there to be replaced in tests.
    """

    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0
    sleep: Callable[[float], Awaitable[None]] = field(
        default=asyncio.sleep, repr=False, compare=False
    )
    jitter: Callable[[], float] = field(default=random.random, repr=False, compare=False)
    """A random number in [0, 1): the share of the backoff actually waited."""

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts must be at least 1, not {self.attempts}")
        for name in ("base_delay", "max_delay", "max_retry_after"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number of seconds, not {value}")

    def backoff(self, attempt: int) -> float:
        """Seconds to wait after failed try number `attempt` (1-based): full jitter."""
        exponent = min(max(attempt - 1, 0), MAX_BACKOFF_EXPONENT)
        ceiling = min(self.max_delay, self.base_delay * 2.0**exponent)
        return ceiling * min(max(self.jitter(), 0.0), 1.0)

    def delay_before_retry(self, error: CardViewerError, attempt: int) -> float | None:
        """Seconds to wait before trying again after `error` on try `attempt`; None: give up.

        The client gives up when the error will not pass by itself, when every try
        is used, or when the server asks for a longer wait than `max_retry_after`.
        """
        if attempt >= self.attempts or not is_transient(error):
            return None
        asked = server_wait(error)
        if asked is not None:
            return asked if asked <= self.max_retry_after else None
        return self.backoff(attempt)


NO_RETRY = RetryPolicy(attempts=1)

WAITS_LEFT_TO_CALLER = RetryPolicy(max_retry_after=0.0)
"""Quick tries as ever, but a wait the server asks for is raised at once: a whole-space
fetch waits it itself, and tells it (`page_patience`), where the client's own waits,
three of up to 30 s, left its progress standing still without a word."""


def is_transient(error: CardViewerError) -> bool:
    """Whether the same request may well succeed if sent again a little later.

    A body cut short or garbled on the way (`UnreadableAnswer`) counts, as a failed
    connection does; a body too large to read (`ResponseTooLarge`) would only be as
    large again.
    """
    if isinstance(error, UnreadableAnswer):
        return True
    if isinstance(error, ApiError):
        return error.status in RETRY_STATUSES
    if isinstance(error, TlsError) or not isinstance(error, NetworkError):
        return False
    return isinstance(error.__cause__, TRANSIENT_TRANSPORT_ERRORS)


def server_wait(error: CardViewerError) -> float | None:
    """The wait the server asked for with `Retry-After`, where that header counts."""
    if isinstance(error, ApiError) and error.status in RETRY_AFTER_STATUSES:
        return error.retry_after
    return None


class WaitUnit(enum.Enum):
    SECONDS = "seconds"
    MINUTES = "minutes"


class Wait(NamedTuple):
    """A wait as a person is told it: an amount of seconds or of minutes."""

    amount: int
    unit: WaitUnit


def wait_to_tell(error: CardViewerError) -> Wait | None:
    """How long the server asked to wait (`retry_after`), as a person is told it.

    None when there is nothing worth telling: no wait, or under `SAY_WAIT_FROM`. Whole
    seconds under `SAY_MINUTES_FROM`, whole minutes from there. The window and
    `cardviewer export` word the same wait in their own ways.
    """
    seconds = error.retry_after if isinstance(error, ApiError) else None
    if seconds is None or not math.isfinite(seconds) or seconds < SAY_WAIT_FROM:
        return None
    if seconds < SAY_MINUTES_FROM:
        return Wait(round(seconds), WaitUnit.SECONDS)
    return Wait(round(seconds / 60), WaitUnit.MINUTES)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Read `Retry-After`, given in seconds or as an HTTP date; junk means unknown (None).

    A date in the past means "now" (0 seconds). A date without a zone is read as
    GMT, which is what HTTP dates are.
    """
    if value is None:
        return None
    text = value.strip()
    if DELAY_SECONDS.fullmatch(text):
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
