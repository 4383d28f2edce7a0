"""The avatar disk cache: freshness from the host's headers, validators, damage, size."""

from __future__ import annotations

import logging
import os
import stat
import time

import pytest

from cardviewer.services.avatar_disk_cache import AvatarDiskCache, freshness_lifetime

URL = "https://cdn.example/avatars/a1.jpg"
NOW = 1_700_000_000.0


@pytest.mark.parametrize(
    ("headers", "lifetime"),
    [
        ({"cache-control": "public, max-age=86400"}, 86400.0),
        ({"cache-control": 'private, max-age="60"'}, 60.0),
        ({"cache-control": "s-maxage=5, max-age=30"}, 30.0),
        ({"cache-control": "no-cache"}, 0.0),
        ({"cache-control": "no-store, max-age=60"}, None),
        ({"expires": "Tue, 14 Nov 2023 22:15:00 GMT"}, 100.0),
        ({"expires": "Mon, 01 Jan 2001 00:00:00 GMT"}, 0.0),
        ({"expires": "soon"}, 0.0),
        ({}, 0.0),
    ],
)
def test_freshness_follows_cache_control_then_expires(headers, lifetime):
    assert freshness_lifetime(headers, NOW) == lifetime


def test_an_image_is_kept_with_its_validators(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    headers = {"cache-control": "max-age=60", "etag": '"abc"', "last-modified": "x"}
    cache.put(URL, headers, b"\x89PNG image")
    image = cache.get(URL)
    assert image is not None
    assert image.body == b"\x89PNG image"
    assert image.is_fresh()
    assert not image.is_fresh(time.time() + 61)
    assert image.validators() == {"If-None-Match": '"abc"', "If-Modified-Since": "x"}
    assert AvatarDiskCache(tmp_path).get(URL) == image  # a new start finds it


def test_no_store_and_unvalidatable_answers_are_not_kept(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"cache-control": "no-store", "etag": '"a"'}, b"img")
    assert cache.get(URL) is None
    cache.put(URL, {}, b"img")  # stale at once and nothing to revalidate it with
    assert cache.get(URL) is None
    cache.put(URL, {"etag": '"a"'}, b"img")  # stale, but a 304 can bring it back
    assert cache.get(URL) is not None


def test_refresh_after_a_304_keeps_the_body(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"cache-control": "no-cache", "etag": '"v1"'}, b"img")
    stale = cache.get(URL)
    assert stale is not None
    assert not stale.is_fresh()
    fresh = cache.refresh(stale, {"cache-control": "max-age=600"})
    assert fresh.body == b"img"
    assert fresh.etag == '"v1"'
    assert cache.get(URL) == fresh
    assert fresh.is_fresh()


@pytest.mark.parametrize(
    "content",
    [b"", b"no newline at all", b"{not json}\nimg", b'{"url": "https://other"}\nimg'],
)
def test_a_damaged_or_foreign_file_is_dropped(tmp_path, content):
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"cache-control": "max-age=60"}, b"img")
    (path,) = list(tmp_path.iterdir())
    path.write_bytes(content)
    assert cache.get(URL) is None
    assert not path.exists()


def test_the_folder_is_trimmed_least_recently_used_first(tmp_path):
    cache = AvatarDiskCache(tmp_path, max_bytes=2500)
    body = b"x" * 1000
    urls = [f"https://cdn.example/{n}.jpg" for n in range(3)]
    for age, url in enumerate(urls):
        before = set(tmp_path.rglob("*"))
        cache.put(url, {"cache-control": "max-age=60"}, body)
        (written,) = {path for path in set(tmp_path.rglob("*")) - before if path.is_file()}
        os.utime(written, (NOW + age, NOW + age))
    cache.trim()
    assert cache.get(urls[0]) is None  # the oldest went
    assert cache.get(urls[1]) is not None
    assert cache.get(urls[2]) is not None
    assert cache.size() <= 2500


def test_clear_forgets_everything(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"cache-control": "max-age=60"}, b"img")
    cache.clear()
    assert cache.get(URL) is None
    assert cache.size() == 0


def test_an_unwritable_folder_is_not_an_error(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("x")
    cache = AvatarDiskCache(blocked / "avatars")
    cache.put(URL, {"cache-control": "max-age=60"}, b"img")
    assert cache.get(URL) is None


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_folder_and_its_files_are_private(tmp_path):
    """An avatar's address may carry a signature: other users must not read them."""
    folder = tmp_path / "cache" / "avatars"
    old = os.umask(0o022)
    try:
        AvatarDiskCache(folder).put(URL + "?sig=abc", {"cache-control": "max-age=60"}, b"img")
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    files = list(folder.iterdir())
    assert files
    assert {stat.S_IMODE(path.stat().st_mode) for path in files} == {0o600}


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_folder_found_open_is_made_private(tmp_path):
    folder = tmp_path / "avatars"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    AvatarDiskCache(folder).put(URL, {"cache-control": "max-age=60"}, b"img")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_log_names_an_address_without_its_query(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.avatar_disk_cache")
    blocked = tmp_path / "file"
    blocked.write_text("x")
    cache = AvatarDiskCache(blocked / "avatars")
    cache.put(URL + "?X-Amz-Signature=s1gn4ture#frag", {"cache-control": "max-age=60"}, b"img")
    assert URL in caplog.text
    assert "s1gn4ture" not in caplog.text
    assert "frag" not in caplog.text
