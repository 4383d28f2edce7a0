"""Waiting out a server gone for a moment, page by page, in a whole-space fetch.

A fetch of 100,000 cards runs for minutes; a server restarting, a gateway switching
over, or a server that asks to be left alone for a while (429, 503 with `Retry-After`)
takes longer than the client's own few tries of a request. A page that fails so is
asked for again after `OUTAGE_WAITS`, or as long as the server asked, as long as a new
try still begins within `OUTAGE_PATIENCE` of its first: the pages fetched before are
not lost to a blip. Each wait is told, every second, and logged with its page.

A failure that will not pass by waiting is raised at once: an answer the server gave
(a 500, a body that is not a page), a refusal (401, 404), a TLS or proxy failure. The
client then asks the server itself to leave its waits to the fetch
(`WAITS_LEFT_TO_CALLER`), so that they are told too.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardviewer.api.errors import (
    QT_TRANSLATE_NOOP,
    ApiError,
    CardViewerError,
    NetworkError,
    Sentence,
)
from cardviewer.api.retry import is_transient, server_wait

if TYPE_CHECKING:
    from cardviewer.api.models import CardPage

log = logging.getLogger(__name__)

OUTAGE_PATIENCE = 60.0
"""Seconds from a page's first try within which a new try may begin.

Read when a fetch starts: tests of failures set it to 0, and a page then fails at once.
"""
OUTAGE_WAITS = (1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds waited before each new try of a page, the last repeated; a server's
`Retry-After` is waited where it asks for longer."""
OUTAGE_STATUSES = frozenset({429, 502, 503, 504})
"""Answers of a server (or its gateway) that is away or overloaded for now."""

GONE = Sentence(
    QT_TRANSLATE_NOOP(
        "ApiErrors",
        "The server stopped answering and was not back within a minute. Try again later.",
    )
)
"""Said instead of "Cannot reach the server … check the address": it answered before."""


@dataclass(frozen=True)
class Wait:
    """A page waiting to be tried again: how long still, and whether the server asked."""

    seconds: float
    asked_by_server: bool = False


class OutageWaits:
    """The waits of the pages of one fetch, told to `tell` as the longest of them.

    Several pages wait at once when the server is away: told one by one, the count
    would jump between them. A wait just over is told as a try under way (0 s).
    """

    def __init__(self, tell: Callable[[Wait | None], None]) -> None:
        self._tell = tell
        self._waits: dict[int, Wait] = {}

    @property
    def waiting(self) -> bool:
        """Whether a page waits to be tried again now."""
        return bool(self._waits)

    def wait(self, page: int, wait: Wait) -> None:
        self._waits[page] = wait
        self._tell(max(self._waits.values(), key=lambda each: each.seconds))

    def dropped(self, page: int) -> None:
        """The page's wait was called off (Cancel, another page's failure): nothing more
        is told of it, least of all a try that will not come."""
        self._waits.pop(page, None)

    def over(self, page: int) -> None:
        ended = self._waits.pop(page, None)
        if ended is None:
            return
        if self._waits:
            self._tell(max(self._waits.values(), key=lambda each: each.seconds))
        else:
            self._tell(Wait(0.0, ended.asked_by_server))


def patiently(
    fetch: Callable[[int], Awaitable[CardPage]],
    waits: OutageWaits,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Callable[[int], Awaitable[CardPage]]:
    """`fetch`, with a page that fails as a server away fails tried again (see above).

    `clock` is read for this alone, not as the fetch's progress time.
    """
    patience = OUTAGE_PATIENCE

    async def fetch_patiently(number: int) -> CardPage:
        began = clock()
        tried = 0
        while True:
            tried += 1
            try:
                return await fetch(number)
            except CardViewerError as error:
                wait = _outage_wait(error, tried)
                if wait is None or clock() - began + wait.seconds > patience:
                    # The caller says why; the log names the page too.
                    log.info("page %d could not be fetched: %s", number, error.detail or error)
                    if wait is not None and tried > 1 and isinstance(error, NetworkError):
                        raise NetworkError(GONE, error.detail) from error
                    raise
                log.warning(
                    "page %d failed (%s); trying it again in %g s",
                    number,
                    error.detail or error,
                    wait.seconds,
                )
                await _waited(waits, number, wait)

    return fetch_patiently


async def _waited(waits: OutageWaits, page: int, wait: Wait) -> None:
    """Wait `wait`, telling `waits` what is left every second."""
    left = wait.seconds
    try:
        while left > 0:
            waits.wait(page, Wait(left, wait.asked_by_server))
            step = min(1.0, left)
            await asyncio.sleep(step)
            left -= step
    except BaseException:
        waits.dropped(page)
        raise
    waits.over(page)


def _outage_wait(error: CardViewerError, tried: int) -> Wait | None:
    """How long to wait before try `tried` + 1 of a page; None: `error` will not pass."""
    away = isinstance(error, NetworkError) or (
        isinstance(error, ApiError) and error.status in OUTAGE_STATUSES
    )
    if not away or not is_transient(error):
        return None
    wait = OUTAGE_WAITS[min(tried, len(OUTAGE_WAITS)) - 1]
    asked = server_wait(error)
    if asked is None or asked < wait:  # the fetch's own wait is the longer
        return Wait(wait)
    return Wait(asked, asked_by_server=True)
