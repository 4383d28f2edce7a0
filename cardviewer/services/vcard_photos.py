"""Where the photos of exported vCards, and the pictures of a printed phone list, come
from: the avatar cache, else the image host.

A vCard carries its photo, and a phone list prints its picture, so either needs each
card's avatar: first
from the disk cache that the window fills as the person browses, else downloaded by
the table's rules and limits (`AvatarFetcher`: trusted addresses only, no token or
cookie, capped in size), a few at a time. Downloads are not added to the cache: a
whole space's would push out what the window keeps. Each picture is made a small JPEG
(`thumbnail`, in a worker thread) and kept only until its cards are written or
painted, a batch at a time (`vcard_export.vcards`, `phone_list`), so a space of
100,000 cards is never in memory. A picture that cannot be had or read costs its card
the photo and one line of the log, never the export. No Qt here; the caller hands in
`vcard_photo.photo_jpeg`, at the size it needs.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import CancelledError as FutureCancelled

import httpx

from cardviewer.api.models import Card, CardPage
from cardviewer.services.avatar_address import address_for_log
from cardviewer.services.avatar_disk_cache import AvatarDiskCache
from cardviewer.services.avatar_fetch import DEFAULT_TIMEOUT, FETCH_ERRORS, AvatarFetcher
from cardviewer.services.streamed_export import AsyncPageEncoder
from cardviewer.services.vcard_export import PhotoLookup, VCardVersion, avatar_address, vcards

log = logging.getLogger(__name__)

MAX_IN_FLIGHT = 4
"""Pictures downloaded at once: what the table allows one image host."""
STOP_POLL = 0.1
"""Seconds between two looks at a writer's stop while it waits for photos."""

Thumbnail = Callable[[bytes], bytes]
"""A picture's bytes made a photo (JPEG); raises `AvatarRejected` for one it cannot use."""


class PhotoSource:
    """The photos of cards, a batch at a time; close it with `aclose`."""

    def __init__(
        self,
        thumbnail: Thumbnail,
        *,
        disk_cache: AvatarDiskCache | None = None,
        allow_private_hosts: bool = False,
        max_in_flight: int = MAX_IN_FLIGHT,
        timeout: float = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """`allow_private_hosts` only for an API server on such an address (`is_private_server`).

        `disk_cache` is where the window keeps avatars; it is read, never added to.
        """
        self._thumbnail = thumbnail
        self._slots = asyncio.Semaphore(max_in_flight)
        self._in_flight = max_in_flight
        self._timeout = timeout
        self._closed = False
        self._fetcher = AvatarFetcher(
            timeout=timeout,
            max_connections=max_in_flight,
            transport=transport,
            disk_cache=disk_cache,
            keep_downloads=False,
            allow_private_hosts=allow_private_hosts,
        )

    async def photos(self, cards: Iterable[Card]) -> dict[str, bytes]:
        """The photos of `cards` that could be had, by avatar address; each asked once.

        Nothing once closed: a writer still running then goes on without photos.
        """
        if self._closed:
            return {}
        wanted: dict[str, str] = {}  # address -> the first card's id, for the log
        for card in cards:
            address = avatar_address(card)
            if address is not None and address not in wanted:
                wanted[address] = card.uuid or "?"
        made = await asyncio.gather(*(self._photo(url, card) for url, card in wanted.items()))
        return {url: photo for url, photo in zip(wanted, made, strict=True) if photo is not None}

    def longest_wait(self, cards: int) -> float:
        """How long the photos of `cards` cards may take, if every download takes its longest."""
        return self._timeout * (cards // self._in_flight + 1)

    async def aclose(self) -> None:
        self._closed = True
        await self._fetcher.aclose()

    async def _photo(self, url: str, card: str) -> bytes | None:
        async with self._slots:
            try:
                async with asyncio.timeout(self._timeout):
                    data = await self._fetcher.fetch(url)
                # Still holding the slot, so decoding is bounded by it as well.
                return await asyncio.to_thread(self._thumbnail, data)
            except FETCH_ERRORS as exc:
                why = str(exc) or type(exc).__name__
                log.debug("no photo for card %s from %s: %s", card, address_for_log(url), why)
            except Exception:
                log.warning(
                    "no photo for card %s from %s", card, address_for_log(url), exc_info=True
                )
            return None


def page_vcards_with_photos(version: VCardVersion, source: PhotoSource) -> AsyncPageEncoder:
    """The vCards of a page's cards with their photos (for `streamed_export`)."""

    async def encode(page: CardPage) -> Iterable[bytes]:
        found = await source.photos(page.cards)
        return vcards(page.cards, version, lambda _cards: found)

    return encode


def blocking_lookup(
    source: PhotoSource,
    loop: asyncio.AbstractEventLoop,
    *,
    stop: threading.Event | None = None,
) -> PhotoLookup:
    """`source` for a writer in a worker thread: it waits while `loop` fetches the photos.

    If the loop can no longer fetch (it is closing, or stopped answering), or `stop` is
    set while the writer waits (Cancel), the cards still to be written get no photo,
    and the thread is never left waiting.
    """

    def lookup(cards: Sequence[Card]) -> Mapping[str, bytes]:
        if stop is not None and stop.is_set():
            return {}
        asked = source.photos(cards)
        try:
            future = asyncio.run_coroutine_threadsafe(asked, loop)
        except RuntimeError:  # the loop is closed
            asked.close()
            return {}
        deadline = time.monotonic() + source.longest_wait(len(cards))
        while True:
            left = deadline - time.monotonic()
            wait = left if stop is None else min(left, STOP_POLL)
            try:
                return future.result(timeout=max(wait, 0.0))
            except TimeoutError as exc:
                if left > wait and not (stop is not None and stop.is_set()):
                    continue
                future.cancel()
                log.debug("no photos for %d cards: %r", len(cards), exc)
                return {}
            except FutureCancelled as exc:
                log.debug("no photos for %d cards: %r", len(cards), exc)
                return {}

    return lookup
