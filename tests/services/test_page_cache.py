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


def test_a_cache_of_one_page_keeps_the_latest():
    """Capacity 1 is allowed and holds exactly the page put last."""
    cache = PageCache(capacity=1)
    cache.put(key(1), page(1))
    cache.put(key(2), page(2))
    assert key(1) not in cache
    assert cache.get(key(2)) == page(2)
    assert len(cache) == 1


def test_the_default_cache_keeps_sixteen_pages():
    """Without a capacity, the 16 most recent pages are kept and the 17th pushes out the first."""
    cache = PageCache()
    for number in range(1, 17):
        cache.put(key(number), page(number))
    assert len(cache) == 16
    assert key(1) in cache
    cache.put(key(17), page(17))
    assert len(cache) == 16
    assert key(1) not in cache
    assert key(2) in cache
