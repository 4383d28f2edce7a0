"""Pages already fetched, kept so that going back or forward paints at once.

Keyed by everything that makes a page what it is: the server, the space, the page
number and whether e-mails were asked for. Bounded (least recently used pages go
first); the model drops it all on refresh, sign-out and a change of space, so a
person never sees a page older than the last time they asked for fresh data.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from cardviewer.api.models import CardPage

DEFAULT_CAPACITY = 16


@dataclass(frozen=True)
class PageKey:
    """Which page of which space, from which server, with or without e-mails."""

    server: str
    space_id: str
    page: int
    with_emails: bool


class PageCache:
    """A small LRU map from `PageKey` to the page the server sent."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("a page cache holds at least one page")
        self._capacity = capacity
        self._pages: OrderedDict[PageKey, CardPage] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pages)

    def __contains__(self, key: object) -> bool:
        return key in self._pages

    def get(self, key: PageKey) -> CardPage | None:
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: PageKey, page: CardPage) -> None:
        self._pages[key] = page
        self._pages.move_to_end(key)
        while len(self._pages) > self._capacity:
            self._pages.popitem(last=False)

    def clear(self) -> None:
        self._pages.clear()
