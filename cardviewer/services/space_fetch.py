"""Fetching every page of a space, a few at a time, for an export of the whole space.

One request after another would make an export of 10,000 cards wait for 1,000 round
trips. Pages are fetched by a small, fixed number of workers instead (the client
retries each one, honouring 429 and Retry-After), and handed back in page order.
The first error cancels the other requests and is raised; cancelling the caller
cancels them too, so nothing keeps running after an export is abandoned. An error that
may pass (the server restarting or overloaded, the network gone for a moment) is
waited out for a while first (`page_patience`), the wait told as progress: minutes of
pages fetched are not lost to a blip.

A server's numbers are not taken on trust: every page must be the one asked for and
add up (`check_page`), no page past page 1's `last_page` is asked for, and the cards
must fit page 1's `meta.total` (`check_card_count`). A server that answers page 1
whatever is asked, or claims a billion pages, stops the fetch at once with an
`UnexpectedResponse`. A page whose `meta.total` is not page 1's stops it with
`SpaceChanged` (`check_same_space`): the space changed meanwhile, and the pages after
the change are shifted, missing cards or repeating them. So does a card that comes a
second time (`check_no_repeats`), as after as many cards added as removed.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from cardviewer.api.models import (
    check_card_count,
    check_no_repeats,
    check_page,
    check_same_space,
)
from cardviewer.services.answer_watch import AnswerWatch, tell_silences
from cardviewer.services.page_patience import OutageWaits, Wait, patiently

if TYPE_CHECKING:
    from cardviewer.api.models import CardPage


DEFAULT_CONCURRENCY = 4
MAX_CONCURRENCY = 16
PROGRESS_INTERVAL = 0.05
"""Seconds between two progress reports at least (the first and the last always come).

Twenty a second read as smooth; a report per page would make a progress dialog
repaint a thousand times in a fast export, on the thread that also reads the pages.
"""

LOOKAHEAD = 2
"""Pages asked for beyond the next one due, per request that may run at once."""

PageFetch = Callable[[int], Awaitable["CardPage"]]
PageCallback = Callable[["CardPage"], object]
"""Takes each page in order; when it returns an awaitable, the next page waits for it."""


@dataclass(frozen=True)
class FetchProgress:
    """How far an export has come; `seconds_left` is a guess from the pace so far."""

    pages_done: int
    pages_total: int
    cards: int
    elapsed: float
    retrying_in: float | None = None
    """Seconds until a page that failed is tried again (`page_patience`); 0: it is being
    tried again; None: no page waits."""
    asked_to_wait: bool = False
    """The server asked for that wait (`Retry-After`), rather than not answering."""
    unanswered_for: float | None = None
    """Seconds the server has kept every request under way unanswered (`answer_watch`),
    told from `SILENCE_NOTICE` on; None: it answers, or a page waits (`retrying_in`)."""
    skipped: int = 0
    """Entries of the pages so far that are not cards, left out (`CardPage.skipped`)."""
    paced_from: tuple[int, float] = (0, 0.0)
    """The pages done and the seconds elapsed where the pace is measured from: after a
    page waited to be tried again, from the first page after (the wait is no pace)."""
    PACE_PAGES: ClassVar[int] = 3
    PACE_SECONDS: ClassVar[float] = 1.0
    """How much of a fetch is measured before its time left is guessed."""

    @property
    def seconds_left(self) -> float | None:
        """None until the pace is known: `PACE_PAGES` pages in `PACE_SECONDS` or more.

        The first page is fetched alone, before the others are fetched side by side;
        a pace taken from it alone overstates the time several times over.
        """
        if self.pages_done > 0 and self.pages_total <= self.pages_done:
            return 0.0
        pages = self.pages_done - self.paced_from[0]
        seconds = self.elapsed - self.paced_from[1]
        if pages < self.PACE_PAGES or seconds < self.PACE_SECONDS:
            return None
        return seconds / pages * (self.pages_total - self.pages_done)


ProgressCallback = Callable[[FetchProgress], None]


async def fetch_pages_in_order(
    fetch: PageFetch,
    on_page: PageCallback,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_progress: ProgressCallback | None = None,
    progress_interval: float = PROGRESS_INTERVAL,
) -> None:
    """Hand every page of the space to `on_page` in page order, each as soon as it can be.

    Page 1 says how many there are. `concurrency` requests run at once at most
    (clamped to 1…`MAX_CONCURRENCY`), and no page more than `LOOKAHEAD` times that
    beyond the next one due is asked for, so a slow page holds back only that many:
    a whole space is never in memory unless `on_page` keeps it; an `on_page` that
    returns an awaitable (writing the page on a worker thread) holds the fetch back as
    long as it takes. An exception from `on_page` stops the fetch like a failed
    request. `on_progress` hears after the first page, after the last, and in between
    after a page that lands `progress_interval` seconds or more after the previous
    report.
    """
    workers = max(1, min(concurrency, MAX_CONCURRENCY))
    started = time.monotonic()
    done = total = cards = skipped = 0
    paced_from = (0, 0.0)
    kept_waiting = False  # a page waited to be tried again: a new pace from the next

    def told(now: float, **how: Any) -> FetchProgress:
        """How far the fetch has come at `now`, and `how` it goes on."""
        return FetchProgress(done, total, cards, now - started, skipped=skipped, **how)

    def waiting(wait: Wait | None) -> None:
        nonlocal kept_waiting
        kept_waiting = True
        if on_progress is not None and wait is not None:
            now = time.monotonic()
            on_progress(told(now, retrying_in=wait.seconds, asked_to_wait=wait.asked_by_server))

    watch = AnswerWatch()
    waits = OutageWaits(waiting)
    fetch = patiently(watch.watched(fetch), waits)

    def silent(seconds: float) -> None:  # a slow server's pace: no new one after it
        if on_progress is not None and not waits.waiting:  # a wait says more
            on_progress(told(time.monotonic(), unanswered_for=seconds))

    telling = asyncio.create_task(tell_silences(watch, silent))
    try:
        first = await fetch(1)
        check_page(first, 1)
        check_same_space(first, first.meta.total)  # whole
        seen: set[str] = set()  # some 10 MB at 100,000 cards
        check_no_repeats(first, seen)
        total = first.meta.last_page
        cards, skipped = first.card_count, first.skipped
        space_total = first.meta.total
        check_card_count(cards, space_total)
        arrived: dict[int, CardPage] = {}
        done = 1
        due = 2  # the next page for `on_page`
        room = asyncio.Condition()
        reported: float | None = None

        def report() -> None:
            nonlocal reported, paced_from, kept_waiting
            if on_progress is None:
                return
            now = time.monotonic()
            if kept_waiting:
                paced_from, kept_waiting = (done, now - started), False
            if reported is None or now - reported >= progress_interval or done == total:
                reported = now
                on_progress(told(now, paced_from=paced_from))

        handing = asyncio.Lock()  # one page at a time to `on_page`, in order

        async def hand(page: CardPage) -> None:
            kept = on_page(page)
            if inspect.isawaitable(kept):
                await kept

        await hand(first)
        report()
        numbers = iter(range(2, total + 1))
        ahead = workers * LOOKAHEAD

        async def work() -> None:
            nonlocal cards, done, due, skipped
            for number in numbers:  # a shared iterator: each page is taken by one worker
                async with room:
                    await room.wait_for(lambda: number < due + ahead)  # noqa: B023 - read at once
                page = await fetch(number)
                check_page(page, number)
                check_same_space(page, space_total)
                check_no_repeats(page, seen)
                done += 1
                cards += page.card_count
                skipped += page.skipped
                check_card_count(cards, space_total)
                arrived[number] = page
                async with handing:
                    while due in arrived:
                        await hand(arrived.pop(due))
                        due += 1
                report()
                async with room:
                    room.notify_all()

        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(workers, total - 1)):
                    group.create_task(work())
        except ExceptionGroup as errors:
            # The first failure is the one to explain; the others were cancelled by it or
            # are the same problem seen by another worker.
            raise _first_leaf(errors) from None
    finally:
        telling.cancel()


def _first_leaf(group: BaseExceptionGroup[BaseException]) -> BaseException:
    error = group.exceptions[0]
    return _first_leaf(error) if isinstance(error, BaseExceptionGroup) else error
