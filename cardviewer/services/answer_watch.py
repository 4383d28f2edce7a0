"""Telling a server that takes requests and does not answer them, during a long fetch.

A server (or a proxy before it) can accept a request and then say nothing: no failure
comes until the client's timeouts have run out, over a minute with its tries, and a
progress that stands still that long reads as a hang. The fetch's requests are watched
instead: once none has been answered for `SILENCE_NOTICE` seconds while one was waiting
for its answer all along, the progress says so, every second, until an answer comes.
A fetch held back by its own writing asks nothing of the server, and is not silence.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from cardviewer.api.answer_heard import listening

SILENCE_NOTICE = 5.0
"""Seconds without an answer from which the silence is told: pages of a busy server
take a second or two; five is more than a slow page and less than a person's patience."""
TICK = 1.0
"""Seconds between two tellings of a silence (its count goes up by the second)."""

Page = TypeVar("Page")


class AnswerWatch:
    """The requests of one fetch under way, and when the server last answered one."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._asked: dict[int, float] = {}  # request -> when it was sent
        self._tickets = itertools.count()
        self._answered = clock()

    def watched(self, fetch: Callable[[int], Awaitable[Page]]) -> Callable[[int], Awaitable[Page]]:
        """`fetch`, each call of it counted as a request under way until it ends.

        A failure is an answer too: the server (or the network) said something; so is
        each try the client makes again after an answer (`api.answer_heard`), a slow
        500 say, but not a try that timed out: that is the silence itself.
        """

        async def fetch_watched(number: int) -> Page:
            ticket = next(self._tickets)
            self._asked[ticket] = self._clock()
            try:
                with listening(self._heard):  # each try the client makes, answered
                    return await fetch(number)
            finally:
                del self._asked[ticket]
                self._heard()

        return fetch_watched

    def _heard(self) -> None:
        self._answered = self._clock()

    def silent_for(self) -> float:
        """Seconds the server has kept every request under way unanswered; 0 with none.

        Counted from the last answer, or from the oldest request under way where that
        was sent later: a request sent a moment ago has not been kept waiting long.
        """
        if not self._asked:
            return 0.0
        since = max(self._answered, min(self._asked.values()))
        return max(0.0, self._clock() - since)


async def tell_silences(
    watch: AnswerWatch,
    tell: Callable[[float], None],
    *,
    notice: float | None = None,
    tick: float | None = None,
) -> None:
    """Call `tell` with the seconds of silence every `tick` while it lasts `notice` or
    more; runs until cancelled. None: `TICK` and `SILENCE_NOTICE`, read at each call so
    that tests can shorten them."""
    while True:
        await asyncio.sleep(TICK if tick is None else tick)
        silent = watch.silent_for()
        if silent >= (SILENCE_NOTICE if notice is None else notice):
            tell(silent)
