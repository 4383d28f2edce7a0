"""Which page of a space to fetch, when, and which answer may be shown.

The window asks for pages faster than a server answers: a person pages on, goes back,
refreshes, opens another space. `PageLoader` decides what happens to each answer, with
no Qt and no sockets of its own, so these rules are tested on their own:

- Only the most recent request lands; an older answer that arrives late is dropped.
- At most one request per page is on its way; a page being prefetched is shared.
- With `prefetch`, the pages before and after the one shown are fetched quietly into a
  small `PageCache`, so paging on shows them at once. The cache is dropped on `retry()`
  (refresh really asks again), on a new source (another sign-in) and for another space.
- A page that failed is remembered for `FAILURE_MEMORY` seconds: showing it again
  reports the same failure without asking, and prefetch leaves it alone. Only `retry()`
  asks the server again at once, so a page that keeps failing is not hammered.

What happens is told to a `PageListener`: the page to show, the failure to report and
whether a load is under way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from cardviewer.api.errors import CardViewerError
from cardviewer.api.models import CardPage
from cardviewer.services.page_cache import PageCache, PageKey
from cardviewer.tasks import TaskSet

log = logging.getLogger(__name__)

FAILURE_MEMORY = 20.0
"""Seconds a failed page is answered from memory instead of being asked for again."""


@dataclass(frozen=True)
class PageRequest:
    """Which page of which space, and whether the cards' e-mail addresses come along."""

    space_id: str
    page: int
    with_emails: bool
    whole_space: bool = False
    """Asked for by a whole-space fetch, which waits out a server away itself."""


PageSource = Callable[[PageRequest], Awaitable[CardPage]]
"""Fetches a page, e.g. `lambda r: client.list_cards(r.space_id, r.page, with_emails=…)`."""


@dataclass(frozen=True)
class LoaderTexts:
    """What to say when a load fails for a reason of our own; the window translates them."""

    no_source: str = "Please sign in first."
    unexpected: str = "Something went wrong while loading the page. Please try again."


class PageListener(Protocol):
    """Who shows what a `PageLoader` decides."""

    def show_page(self, request: PageRequest, page: CardPage) -> None:
        """Show `page`, the answer to `request`, the most recent request."""

    def report_failure(self, request: PageRequest, error: CardViewerError) -> None:
        """The most recent request failed; the page shown stays."""

    def loading_changed(self, loading: bool) -> None:
        """A page the person asked for is (no longer) on its way."""


@dataclass
class _Failure:
    error: CardViewerError
    at: float
    reported: bool = False
    """Told to the person; a failed prefetch is not, so showing that page asks once more."""


_Outcome = CardPage | Exception


class PageLoader:
    """Loads the pages of one space at a time from a `PageSource`, for one listener."""

    def __init__(
        self,
        listener: PageListener,
        *,
        prefetch: bool = False,
        texts: LoaderTexts | None = None,
        failure_memory: float = FAILURE_MEMORY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._listener = listener
        self._prefetch = prefetch
        self._texts = texts or LoaderTexts()
        self._failure_memory = failure_memory
        self._clock = clock
        self._source: PageSource | None = None
        self._scope = ""
        self._space: str | None = None
        self._cache = PageCache()
        self._failures: dict[PageKey, _Failure] = {}
        self._fetches: dict[PageKey, asyncio.Task[_Outcome]] = {}
        self._prefetches: set[PageKey] = set()
        self._ahead: set[PageKey] = set()
        """Pages fetched ahead (`fetch_ahead`) and not asked for since."""
        self._pending: PageRequest | None = None
        self._last: PageRequest | None = None
        self._generation = 0
        self._loading = False
        self._closed = False
        self._tasks = TaskSet()

    # State

    @property
    def pending_request(self) -> PageRequest | None:
        """The request being loaded, if any."""
        return self._pending

    @property
    def last_request(self) -> PageRequest | None:
        """The request asked for last, loaded, failed or under way: what `retry` asks again."""
        return self._last

    @property
    def is_loading(self) -> bool:
        return self._loading

    @property
    def is_prefetching(self) -> bool:
        """Neighbouring pages are being fetched in the background."""
        return bool(self._prefetches)

    # Requests

    def set_source(self, source: PageSource | None, scope: str = "") -> None:
        """Fetch pages from `source` from now on; a load from the previous one is dropped.

        `scope` names where the pages come from (the server), for the cache.
        """
        self._source = source
        self._scope = scope
        self._forget_pages()
        self.cancel()

    def request_page(self, request: PageRequest) -> None:
        """Show a page: at once if it was fetched already, else once it has arrived.

        A load still running is abandoned and its answer ignored.
        """
        self._last = request
        if self._closed:
            log.debug("page %s not requested: the loader is closed", request)
            return
        self._enter_space(request.space_id)
        key = self._key(request)
        ahead = key in self._ahead
        self._ahead.discard(key)
        self._abandon_load(keep=key)
        cached = self._cache.get(key)
        if cached is not None:
            self._pending = None
            self._set_loading(False)
            self._listener.show_page(request, cached)
            self._prefetch_around(request, cached)
            return
        failure = self._recent_failure(key)
        if failure is not None and (failure.reported or ahead):
            log.info("page %d of space %s failed moments ago", request.page, request.space_id)
            failure.reported = True
            self._fail(request, failure.error)
            return
        self._pending = request
        # The fetch on its way, taken now: one that ends before the load's first step
        # would otherwise be gone from `_fetches`, and the page asked for again.
        fetch = self._fetch(key, request) if self._source is not None else None
        self._tasks.start(self._load(request, self._generation, fetch), name="page")
        self._set_loading(True)

    def fetch_ahead(self, request: PageRequest) -> None:
        """Start fetching a page about to be asked for, without showing it: the first
        page of the space the window opens, while the window is built. `request_page`
        for it then waits for this fetch instead of starting another."""
        if self._closed or self._source is None or not self._prefetch:
            return
        self._enter_space(request.space_id)
        key = self._key(request)
        self._ahead.add(key)  # a failure is the page's answer when it is asked for
        if key not in self._cache and key not in self._fetches:
            self._prefetches.add(key)
            self._tasks.start(self._prefetch_page(key, request))

    def retry(self) -> None:
        """Ask the server again for the most recent page, fetched or failed before or not."""
        self._forget_pages()
        if self._last is not None:
            self.request_page(self._last)

    def cancel(self) -> None:
        """Stop waiting for the page asked for; the page shown stays."""
        self._abandon_load()
        self._set_loading(False)

    def _abandon_load(self, keep: PageKey | None = None) -> None:
        """Drop the load under way, and its request unless a prefetch or `keep` wants it."""
        self._generation += 1
        self._tasks.cancel("page")
        pending, self._pending = self._pending, None
        if pending is None:
            return
        key = self._key(pending)
        fetch = self._fetches.get(key)
        if fetch is not None and key != keep and key not in self._prefetches:
            del self._fetches[key]
            fetch.cancel()

    def forget(self) -> None:
        """Show nothing any more: stop loading and forget the pages and the last request."""
        self._forget_pages()
        self.cancel()
        self._last = None

    async def aclose(self) -> None:
        """Cancel every load and fetch under way and wait until they have ended."""
        self._closed = True
        self._generation += 1
        self._pending = None
        await self._tasks.aclose()
        self._set_loading(False)

    # Loading

    async def _load(
        self, request: PageRequest, generation: int, fetch: asyncio.Task[_Outcome] | None
    ) -> None:
        key = self._key(request)
        try:
            if fetch is None:
                raise CardViewerError(
                    self._texts.no_source, detail="the page loader has no page source"
                )
            outcome = await asyncio.shield(fetch)
            if isinstance(outcome, Exception):
                raise outcome
            page = outcome
        except asyncio.CancelledError:
            # A newer request (or closing) replaced this one. End quietly instead of
            # cancelled: a cancelled task keeps its CancelledError, whose traceback holds
            # this frame and so its listener, in a reference cycle that only the garbage
            # collector frees, in whichever thread it runs; Qt objects must not be
            # destroyed outside the GUI thread.
            return
        except CardViewerError as exc:
            if generation == self._generation:
                log.info("page %d of space %s not loaded: %s", request.page, request.space_id, exc)
                failure = self._failures.get(key)
                if failure is not None and failure.error is exc:
                    failure.reported = True
                self._fail(request, exc)
            return
        except Exception as exc:
            if generation == self._generation:
                log.exception("page %d of space %s not loaded", request.page, request.space_id)
                error = CardViewerError(
                    self._texts.unexpected, detail=f"{type(exc).__name__}: {exc}"
                )
                self._fail(request, error)
            return
        # No await from this check to the listener: a newer request cannot slip in.
        if generation != self._generation:
            return
        self._pending = None
        self._set_loading(False)
        self._listener.show_page(request, page)
        self._prefetch_around(request, page)

    def _fetch(self, key: PageKey, request: PageRequest) -> asyncio.Task[_Outcome]:
        """The one fetch of this page: the one on its way, or a new one."""
        fetch = self._fetches.get(key)
        if fetch is None:
            fetch = self._fetches[key] = self._tasks.start(self._fetch_page(key, request))
        return fetch

    async def _fetch_page(self, key: PageKey, request: PageRequest) -> _Outcome:
        """Fetch a page and remember how it went: in the cache, or as a failure.

        A failure is returned, not raised: it is each waiting load's to report.
        """
        source = self._source
        assert source is not None
        try:
            page = await source(request)
        except CardViewerError as exc:
            if source is self._source:
                self._failures[key] = _Failure(exc, self._clock())
            return exc
        except Exception as exc:
            return exc
        finally:
            if self._fetches.get(key) is asyncio.current_task():
                del self._fetches[key]
        if source is self._source and request.space_id == self._space:
            self._failures.pop(key, None)
            if self._prefetch:
                self._cache.put(key, page)
        return page

    def _fail(self, request: PageRequest, error: CardViewerError) -> None:
        self._pending = None
        self._set_loading(False)
        self._listener.report_failure(request, error)

    def _set_loading(self, loading: bool) -> None:
        if loading != self._loading:
            self._loading = loading
            self._listener.loading_changed(loading)

    # Neighbours, cache and failures

    def _key(self, request: PageRequest) -> PageKey:
        return PageKey(self._scope, request.space_id, request.page, request.with_emails)

    def _prefetch_around(self, request: PageRequest, page: CardPage) -> None:
        if not self._prefetch or self._source is None or self._closed:
            return
        for number in (request.page + 1, request.page - 1):
            if not 1 <= number <= page.meta.last_page:
                continue
            neighbour = PageRequest(request.space_id, number, request.with_emails)
            key = self._key(neighbour)
            busy = key in self._cache or key in self._fetches
            if not busy and self._recent_failure(key) is None:
                self._prefetches.add(key)
                self._tasks.start(self._prefetch_page(key, neighbour))

    async def _prefetch_page(self, key: PageKey, request: PageRequest) -> None:
        """Fetch a neighbouring page into the cache; a failure here is nobody's concern yet."""
        try:
            outcome = await self._fetch(key, request)
        except asyncio.CancelledError:
            return  # quietly, as `_load` explains
        finally:
            self._prefetches.discard(key)
        if isinstance(outcome, Exception):
            log.debug("page %d of %s not prefetched: %s", request.page, request.space_id, outcome)

    def _recent_failure(self, key: PageKey) -> _Failure | None:
        failure = self._failures.get(key)
        if failure is not None and self._clock() - failure.at >= self._failure_memory:
            del self._failures[key]
            return None
        return failure

    def _enter_space(self, space_id: str) -> None:
        """Another space: what was fetched or failed for the one before is forgotten."""
        if space_id != self._space:
            self._forget_pages()
            self._space = space_id

    def _forget_pages(self) -> None:
        """Drop the cache, the remembered failures and the fetches under way."""
        self._cache.clear()
        self._failures.clear()
        self._ahead.clear()
        for fetch in self._fetches.values():
            fetch.cancel()
        self._fetches.clear()
