"""The page cache: keyed by server, space, page and e-mails; bounded, most recent kept."""

from __future__ import annotations

import pytest

from cardviewer.api import CardPage
from cardviewer.services.page_cache import PageCache, PageKey


def page(number: int) -> CardPage:
    meta = {"current_page": number, "last_page": 99, "per_page": 10, "total": 990}
    return CardPage.model_validate({"cards": (), "meta": meta, "links": {}})


def key(
    number: int, *, space: str = "s", emails: bool = False, server: str = "https://a"
) -> PageKey:
    return PageKey(server, space, number, emails)


def test_a_page_is_found_by_its_whole_key():
    cache = PageCache()
    cache.put(key(1), page(1))
    assert cache.get(key(1)) == page(1)
    assert cache.get(key(1, emails=True)) is None
    assert cache.get(key(1, space="other")) is None
    assert cache.get(key(1, server="https://b")) is None
    assert cache.get(key(2)) is None


def test_the_least_recently_used_page_goes_first():
    cache = PageCache(capacity=3)
    for number in (1, 2, 3):
        cache.put(key(number), page(number))
    assert cache.get(key(1)) is not None  # 1 is now the most recent
    cache.put(key(4), page(4))
    assert key(2) not in cache
    assert [n for n in (1, 3, 4) if key(n) in cache] == [1, 3, 4]
    assert len(cache) == 3


def test_clear_forgets_everything():
    cache = PageCache()
    cache.put(key(1), page(1))
    cache.clear()
    assert len(cache) == 0
    assert cache.get(key(1)) is None


def test_capacity_must_be_positive():
    with pytest.raises(ValueError, match="at least one"):
        PageCache(capacity=0)
