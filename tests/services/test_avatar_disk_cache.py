"""The avatar disk cache: freshness from the host's headers, validators, damage, size."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import stat
import time
from pathlib import Path

import pytest

from cardviewer.services.avatar_disk_cache import (
    MAX_FILE_BYTES,
    MAX_IMAGE_BYTES,
    AvatarDiskCache,
    freshness_lifetime,
    on_disk,
)

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
    assert not fresh.is_fresh(time.time() + 601)
    assert fresh.body == b"img"
    assert fresh.etag == '"v1"'
    assert cache.get(URL) == fresh
    assert fresh.is_fresh()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"no newline at all",
        b"{not json}\nimg",
        b'{"url": "https://other"}\nimg',
        b"[" * 100_000 + b"\nimg",
        b"[" * 10_000 + b"\nimg",
        b'{"url": "https://cdn.example/avatars/a1.jpg\\u0000"}\nimg',
        b"\x00" * 1000,
    ],
    ids=[
        "empty",
        "no-newline",
        "not-json",
        "another-address",
        "nested-past-the-header",
        "nested-in-the-header",
        "nul-in-the-header",
        "nul-bytes",
    ],
)
def test_a_damaged_or_foreign_file_is_set_aside(tmp_path, caplog, content):
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"cache-control": "max-age=60"}, b"img")
    (path,) = list(tmp_path.iterdir())
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert cache.get(URL) is None
    assert len(caplog.records) == 1
    assert not path.exists()
    copy = path.with_name(path.name + ".damaged")
    assert copy.read_bytes() == content
    cache.put(URL, {"cache-control": "max-age=60"}, b"new")
    image = cache.get(URL)
    assert image is not None
    assert image.body == b"new"
    assert copy.read_bytes() == content


def test_damaged_copies_are_not_counted_trimmed_or_cleared(tmp_path):
    cache = AvatarDiskCache(tmp_path, max_bytes=10_000)
    path = put_new(cache, tmp_path, URL, b"img")
    path.write_bytes(b"d" * 5000)
    assert cache.get(URL) is None
    copy = path.with_name(path.name + ".damaged")
    assert cache.size() == 0
    cache.put("https://cdn.example/2", FRESH, b"x" * 9000)
    cache.trim()
    cache.clear()
    assert copy.read_bytes() == b"d" * 5000


def test_a_picture_over_the_limit_is_neither_read_nor_kept(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    record = entry(URL).removesuffix(b"img")
    path.write_bytes(record + b"\0" * MAX_IMAGE_BYTES)
    image = cache.get(URL)
    assert image is not None
    assert len(image.body) == MAX_IMAGE_BYTES
    path.write_bytes(record + b"\0" * (MAX_IMAGE_BYTES + 1))
    assert cache.get(URL) is None
    assert (
        path.with_name(path.name + ".damaged").stat().st_size == len(record) + MAX_IMAGE_BYTES + 1
    )
    cache.put(URL, FRESH, b"x" * (MAX_IMAGE_BYTES + 1))
    assert not path.exists()
    assert cache.get(URL) is None
    cache.put(URL, FRESH, b"x" * MAX_IMAGE_BYTES)
    kept = cache.get(URL)
    assert kept is not None
    assert len(kept.body) == MAX_IMAGE_BYTES, "a picture of the limit itself is kept"


def test_the_limits_are_the_documented_ones():
    """Written out: 16 MiB a picture; a file is read up to its header line, a newline and
    the largest picture. The tests above use the constants, so they are checked here."""
    assert MAX_IMAGE_BYTES == 16 * 2**20
    assert MAX_FILE_BYTES == 16 * 2**10 + 1 + 16 * 2**20


def test_the_folder_is_trimmed_least_recently_used_first(tmp_path):
    cache = AvatarDiskCache(tmp_path, max_bytes=10**9)
    body = b"x" * 1000
    urls = [f"https://cdn.example/{n}.jpg" for n in range(3)]
    for age, url in enumerate(urls):
        before = set(tmp_path.rglob("*"))
        cache.put(url, {"cache-control": "max-age=60"}, body)
        (written,) = {path for path in set(tmp_path.rglob("*")) - before if path.is_file()}
        os.utime(written, (NOW + age, NOW + age))
    one = cache.size() // 3
    cache.max_bytes = one * 5 // 2
    cache.trim()
    assert cache.get(urls[0]) is None  # the oldest went
    assert cache.get(urls[1]) is not None
    assert cache.get(urls[2]) is not None
    assert cache.size() <= cache.max_bytes


def test_the_folder_s_size_is_the_room_its_files_take_on_the_disk(tmp_path):
    """A file of 5 KB takes 8 KB of a disk with 4 KB blocks: counted by their sizes,
    a cache of 200 MB took 330 MB of the disk."""
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, FRESH, b"x" * 5000)
    (path,) = (p for p in tmp_path.rglob("*") if p.is_file())
    state = path.stat()
    assert cache.size() == on_disk(state)
    if hasattr(state, "st_blocks") and state.st_blocks * 512 > state.st_size:
        assert cache.size() == state.st_blocks * 512  # whole blocks
    assert on_disk(os.stat_result((0o600, 0, 0, 1, 0, 0, 5000, 0, 0, 0))) == 5000


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


FRESH = {"cache-control": "max-age=60"}


def put_new(cache: AvatarDiskCache, folder: Path, url: str, body: bytes) -> Path:
    """Store `body` for a `url` not stored yet; the file it went into."""
    before = set(folder.iterdir()) if folder.exists() else set()
    cache.put(url, FRESH, body)
    (path,) = set(folder.iterdir()) - before
    return path


def entry(url: str, **meta: object) -> bytes:
    """A stored file as the module documents it: a JSON header line, then the image."""
    header = {"url": url, "etag": None, "last_modified": None, "fresh_until": NOW, **meta}
    return json.dumps(header).encode() + b"\nimg"


def test_an_image_is_fresh_until_the_moment_it_expires(tmp_path):
    """Fresh strictly before `fresh_until`; from that moment on the host is asked again."""
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, FRESH, b"img")
    image = cache.get(URL)
    assert image is not None
    assert image.is_fresh(image.fresh_until - 0.5)
    assert not image.is_fresh(image.fresh_until)


@pytest.mark.parametrize(
    ("headers", "validators"),
    [
        ({"etag": '"abc"'}, {"If-None-Match": '"abc"'}),
        ({"last-modified": "Mon"}, {"If-Modified-Since": "Mon"}),
    ],
)
def test_a_stale_answer_with_one_validator_is_kept_and_asked_with_it(tmp_path, headers, validators):
    """Either validator alone can bring a stale image back, and only that one is sent."""
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, headers, b"img")
    image = cache.get(URL)
    assert image is not None
    assert not image.is_fresh()
    assert image.validators() == validators


@pytest.mark.parametrize(
    ("headers", "lifetime"),
    [
        ({"expires": "Thu, 14 Nov 2075 22:15:00 -0000"}, 0.0),
        ({"expires": "Tue, 14 Nov 2023 22:13:20 GMT"}, 0.0),
        ({"expires": "Tue, 14 Nov 2023 22:13:21 GMT"}, 1.0),
        ({"cache-control": "max-age=0", "expires": "Tue, 14 Nov 2023 22:15:00 GMT"}, 0.0),
        ({"cache-control": "public", "expires": "Tue, 14 Nov 2023 22:15:00 GMT"}, 100.0),
        ({"cache-control": "MAX-AGE=7"}, 7.0),
        ({"cache-control": "no-cache, max-age=60"}, 0.0),
    ],
)
def test_freshness_at_its_edges(headers, lifetime):
    """An `Expires` without a zone or at this moment gives none; `max-age` is read before it."""
    assert freshness_lifetime(headers, NOW) == lifetime


def test_a_304_brings_new_validators_and_keeps_the_ones_it_omits(tmp_path):
    """The validators of a 304 replace the stored ones; those it does not send stay."""
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"etag": '"v1"', "last-modified": "Mon"}, b"img")
    stale = cache.get(URL)
    assert stale is not None
    fresh = cache.refresh(stale, {"etag": '"v2"', "cache-control": "max-age=60"})
    assert fresh.validators() == {"If-None-Match": '"v2"', "If-Modified-Since": "Mon"}
    again = cache.refresh(fresh, {"last-modified": "Tue"})
    assert again.validators() == {"If-None-Match": '"v2"', "If-Modified-Since": "Tue"}
    assert cache.get(URL) == again


def test_a_304_that_forbids_storing_removes_the_image(tmp_path):
    """`no-store` on a 304: the image is used this once and no longer kept."""
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, {"etag": '"v1"'}, b"img")
    stale = cache.get(URL)
    assert stale is not None
    assert cache.refresh(stale, {"cache-control": "no-store"}) == stale
    assert cache.get(URL) is None


def test_reading_an_image_makes_it_the_most_recently_used(tmp_path):
    """An image read is kept longest when the folder is trimmed."""
    cache = AvatarDiskCache(tmp_path, max_bytes=10**9)
    urls = [f"https://cdn.example/{n}.jpg" for n in range(2)]
    for age, url in enumerate(urls):
        path = put_new(cache, tmp_path, url, b"x" * 1000)
        os.utime(path, (NOW + age, NOW + age))
    assert cache.get(urls[0]) is not None  # the older one, now the most recently used
    AvatarDiskCache(tmp_path, max_bytes=cache.size() - 1).trim()
    assert cache.get(urls[0]) is not None
    assert cache.get(urls[1]) is None


def test_a_folder_that_fits_exactly_is_not_trimmed(tmp_path):
    """Trimming stops as soon as the folder is no larger than its size."""
    cache = AvatarDiskCache(tmp_path)
    for n in range(2):
        cache.put(f"https://cdn.example/{n}.jpg", FRESH, b"x" * 100)
    size = cache.size()
    AvatarDiskCache(tmp_path, max_bytes=size).trim()
    assert cache.size() == size


def test_the_folder_is_trimmed_after_a_twentieth_of_its_size_is_stored(tmp_path):
    """Storing more than max_bytes // 20 since the last trim trims again, and no sooner;
    counted as the files take the disk, as the size is (`on_disk`)."""
    probe = put_new(AvatarDiskCache(tmp_path / "probe"), tmp_path / "probe", URL, b"x" * 50)
    block = on_disk(probe.stat())  # what a small avatar takes: a block, or its size
    filler = AvatarDiskCache(tmp_path, max_bytes=10**9)
    cache = AvatarDiskCache(tmp_path, max_bytes=40 * block)  # trims past 2 small ones

    def fill() -> list[Path]:
        """Old files enough to put the folder over its size."""
        paths = [
            put_new(filler, tmp_path, f"https://old.example/{n}", b"o" * 100) for n in range(41)
        ]
        for age, path in enumerate(paths):
            os.utime(path, (NOW + age, NOW + age))
        return paths

    old = fill()
    put_new(cache, tmp_path, "https://cdn.example/0", b"x" * 50)
    assert all(path.exists() for path in old), "one stored: not yet"
    put_new(cache, tmp_path, "https://cdn.example/1", b"x" * 50)
    assert all(path.exists() for path in old), "two stored, a twentieth: not yet"
    put_new(cache, tmp_path, "https://cdn.example/2", b"x")
    assert not old[0].exists(), "more than a twentieth stored: trimmed"
    assert cache.size() <= cache.max_bytes

    for path in old[1:]:
        path.unlink(missing_ok=True)
    old = fill()
    put_new(cache, tmp_path, "https://cdn.example/3", b"x" * 50)
    put_new(cache, tmp_path, "https://cdn.example/4", b"x" * 50)
    assert all(path.exists() for path in old), "counted again from 0 after the trim"
    put_new(cache, tmp_path, "https://cdn.example/5", b"x")
    assert not old[0].exists()


def test_the_default_size_is_200_mib(tmp_path):
    """Without a size the folder may hold 200 MiB of avatars."""
    assert AvatarDiskCache(tmp_path).max_bytes == 209_715_200


def test_files_that_are_no_avatars_are_left_alone(tmp_path):
    """Only `.avatar` files count towards the size, and only they are cleared or trimmed."""
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"n" * 5000)
    readme = tmp_path / "README"
    readme.write_bytes(b"r" * 5000)
    cache = AvatarDiskCache(tmp_path, max_bytes=10**9)
    cache.put(URL, FRESH, b"img")
    assert 0 < cache.size() < 5000
    AvatarDiskCache(tmp_path, max_bytes=0).trim()
    assert notes.exists()
    assert readme.exists()
    cache.put(URL, FRESH, b"img")
    cache.clear()
    assert cache.size() == 0
    assert notes.read_bytes() == b"n" * 5000
    assert readme.read_bytes() == b"r" * 5000


def test_a_missing_folder_is_empty(tmp_path):
    """Before anything is stored the folder need not exist: nothing is in it, nothing fails."""
    cache = AvatarDiskCache(tmp_path / "never-made")
    assert cache.size() == 0
    cache.trim()
    cache.clear()
    assert cache.get(URL) is None


def test_an_unreadable_entry_is_a_miss(tmp_path):
    """A folder where an avatar's file should be reads as nothing stored, and is set aside."""
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    path.unlink()
    path.mkdir()
    assert cache.get(URL) is None
    assert path.with_name(path.name + ".damaged").is_dir()
    cache.put(URL, FRESH, b"img")
    assert cache.get(URL) is not None


@pytest.mark.parametrize(
    "meta",
    [
        pytest.param({"fresh_until": ...}, id="no-fresh-until"),
        pytest.param({"fresh_until": None}, id="null-fresh-until"),
        pytest.param({"fresh_until": "soon"}, id="word-fresh-until"),
        pytest.param({"fresh_until": str(NOW)}, id="text-fresh-until"),
        pytest.param({"fresh_until": True}, id="true-fresh-until"),
        pytest.param({"fresh_until": 10**400}, id="huge-fresh-until"),
    ],
)
def test_a_file_without_a_usable_lifetime_is_dropped(tmp_path, meta):
    """The header must say until when the image is fresh."""
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    header = {"url": URL, "etag": None, "last_modified": None, "fresh_until": NOW, **meta}
    path.write_bytes(json.dumps({k: v for k, v in header.items() if v is not ...}).encode() + b"\n")
    assert cache.get(URL) is None
    assert not path.exists()


def test_stored_validators_that_are_not_text_are_ignored(tmp_path):
    """An ETag or date stored as a number or empty text is not sent back."""
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    path.write_bytes(entry(URL, etag=5, last_modified=""))
    image = cache.get(URL)
    assert image is not None
    assert (image.etag, image.last_modified, image.validators()) == (None, None, {})


def test_a_header_line_of_up_to_16_kib_is_read(tmp_path):
    """A header of 16,384 bytes is read; one byte more and the file counts as damaged."""
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    bare = len(entry(URL, etag="")) - len(b"\nimg")
    path.write_bytes(entry(URL, etag="e" * (16 * 1024 - bare)))
    image = cache.get(URL)
    assert image is not None
    assert image.body == b"img"
    path.write_bytes(entry(URL, etag="e" * (16 * 1024 - bare + 1)))
    assert cache.get(URL) is None
    assert not path.exists()


@pytest.mark.parametrize("header", [b"[1]", b'"text"', b"5", b"null"])
def test_a_header_that_is_not_a_json_object_is_dropped(tmp_path, header):
    """A header line of valid JSON that is no object is damage like any other: a miss."""
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    path.write_bytes(header + b"\nimg")
    assert cache.get(URL) is None
    assert not path.exists()


@pytest.mark.parametrize("other", ["https://a.example/x.jpg", "https://z.example/x.jpg"])
def test_a_complete_file_for_another_address_is_dropped(tmp_path, other):
    """A file whose header names another address is not that address's image."""
    cache = AvatarDiskCache(tmp_path)
    path = put_new(cache, tmp_path, URL, b"img")
    path.write_bytes(entry(other))
    assert cache.get(URL) is None
    assert not path.exists()


def test_addresses_and_validators_beyond_ascii_are_kept(tmp_path):
    """An address or ETag with non-ASCII characters is stored and read back unchanged."""
    cache = AvatarDiskCache(tmp_path)
    url = "https://cdn.example/avatars/josé.jpg"
    cache.put(url, {"cache-control": "max-age=60", "etag": '"ü-1"'}, b"img")
    image = cache.get(url)
    assert image is not None
    assert (image.url, image.etag) == (url, '"ü-1"')


def test_a_stored_image_is_a_frozen_value(tmp_path):
    """An image read from the cache cannot be changed, and equal images hash alike."""
    cache = AvatarDiskCache(tmp_path)
    cache.put(URL, FRESH, b"img")
    image = cache.get(URL)
    assert image is not None
    assert hash(image) == hash(cache.get(URL))
    with pytest.raises(dataclasses.FrozenInstanceError):
        image.body = b"other"  # type: ignore[misc]
