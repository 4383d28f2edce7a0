"""Avatar images kept on disk with their HTTP validators, so a restart re-downloads nothing.

Each image is one file named by the SHA-256 of its address, holding a small JSON
header line (address, `ETag`, `Last-Modified`, when it was stored, how long it stays
fresh) and then the image bytes. Within the image host's `Cache-Control: max-age`
(or `Expires`) an image is used without a request; after it, a conditional request
(`If-None-Match` / `If-Modified-Since`) costs a 304 instead of the image. Responses
marked `no-store` are never kept. The folder is bounded: the least recently used
files go when it grows past its size, and a picture over `MAX_IMAGE_BYTES` is not
kept. A damaged file (no header line, a header of another shape or for another
address, a picture over that size, unreadable) is a miss: it is renamed to
`….avatar.damaged` (see `local_file`) with one line in the log, and the picture is
downloaded again; such copies are not counted in the folder's size, trimmed or
cleared. The folder (0700) and its files (0600) are this user's alone, since an
address may carry a signature in its query; the log names an address without its
query.

A general HTTP cache library was tried first; its asynchronous SQLite storage runs
its queries in worker threads that crashed the process under concurrent downloads.
Avatars need only this small, well-defined subset of RFC 9111, so it lives here.
Every method does blocking file I/O: call them from a worker thread.
"""

from __future__ import annotations

import contextlib
import email.utils
import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from cardviewer.paths import private_folder
from cardviewer.services.atomic_file import write_atomically
from cardviewer.services.avatar_address import address_for_log
from cardviewer.services.local_file import DamagedFile, LocalFile, parse_json_object

log = logging.getLogger(__name__)

FOLDER = "avatars"
"""The cache's folder, in the user's cache folder."""
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
SUFFIX = ".avatar"
_MAX_AGE = re.compile(r"(?:^|,)\s*(?:s-)?max-age\s*=\s*\"?(\d+)", re.IGNORECASE)
_HEADER_LIMIT = 16 * 1024
MAX_IMAGE_BYTES = 16 * 1024 * 1024
"""The largest picture kept. The avatar loader refuses pictures over 5 MB unless told
otherwise, and an avatar is a thumbnail; a larger one is not worth the space."""
MAX_FILE_BYTES = _HEADER_LIMIT + 1 + MAX_IMAGE_BYTES
"""The most of an avatar file read: the header line, its newline and the largest picture
kept. A larger file was not written here, and reading no more bounds what a damaged one
costs."""
_FILE = LocalFile("the avatar file", MAX_FILE_BYTES, "the picture is downloaded again")


@dataclass(frozen=True)
class CachedImage:
    """An image as stored, with what is needed to ask the host whether it changed."""

    url: str
    body: bytes
    etag: str | None
    last_modified: str | None
    fresh_until: float
    """Seconds since the epoch until which the image is used without asking."""

    def is_fresh(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) < self.fresh_until

    def validators(self) -> dict[str, str]:
        """The headers of a conditional request for this image."""
        headers = {}
        if self.etag:
            headers["If-None-Match"] = self.etag
        if self.last_modified:
            headers["If-Modified-Since"] = self.last_modified
        return headers


def freshness_lifetime(headers: dict[str, str], now: float) -> float | None:
    """Seconds a response may be used without asking, or None if it must not be stored.

    `headers` has lower-case names. `no-store` forbids storing; `no-cache` stores but
    asks every time (lifetime 0); else `max-age`, else `Expires`, else 0. This is a
    private cache (one user's), so `private` responses may be kept.
    """
    cache_control = headers.get("cache-control", "").lower()
    if "no-store" in cache_control:
        return None
    if "no-cache" in cache_control:
        return 0.0
    match = _MAX_AGE.search(cache_control)
    if match:
        return float(match.group(1))
    expires = headers.get("expires")
    if expires:
        try:
            parsed = email.utils.parsedate_to_datetime(expires)
        except (TypeError, ValueError):
            return 0.0
        if parsed.tzinfo is not None:
            return max(0.0, parsed.timestamp() - now)
    return 0.0


class AvatarDiskCache:
    """The avatar files in one folder; safe to use from one thread at a time per file."""

    def __init__(self, folder: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self._stored_since_trim = 0

    def _path(self, url: str) -> Path:
        return self.folder / (hashlib.sha256(url.encode("utf-8")).hexdigest() + SUFFIX)

    def get(self, url: str) -> CachedImage | None:
        """The stored image for `url`, or None (missing, damaged or for another address)."""
        path = self._path(url)
        image = _FILE.load(path, lambda content: _parse_file(content, url))
        if image is None:
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # most recently used: kept longest when the folder is trimmed
        return image

    def put(self, url: str, headers: dict[str, str], body: bytes) -> None:
        """Keep `body` for `url` if the response's headers allow it (lower-case names)."""
        now = time.time()
        lifetime = freshness_lifetime(headers, now)
        etag, modified = headers.get("etag"), headers.get("last-modified")
        if (
            lifetime is None
            or (lifetime == 0 and not etag and not modified)
            or len(body) > MAX_IMAGE_BYTES
        ):
            self.remove(url)  # nothing that could be reused or revalidated, or too large
            return
        self._write(CachedImage(url, body, etag, modified, now + lifetime))

    def refresh(self, image: CachedImage, headers: dict[str, str]) -> CachedImage:
        """After a 304: the same image, fresh again for the lifetime the host now states."""
        now = time.time()
        lifetime = freshness_lifetime(headers, now)
        if lifetime is None:
            self.remove(image.url)
            return image
        updated = CachedImage(
            image.url,
            image.body,
            headers.get("etag") or image.etag,
            headers.get("last-modified") or image.last_modified,
            now + lifetime,
        )
        self._write(updated)
        return updated

    def remove(self, url: str) -> None:
        with contextlib.suppress(OSError):
            self._path(url).unlink()

    def clear(self) -> None:
        """Forget every stored avatar."""
        for path in self._files():
            with contextlib.suppress(OSError):
                path.unlink()

    def size(self) -> int:
        """The room the stored avatars take on the disk (`on_disk`)."""
        total = 0
        for path in self._files():
            with contextlib.suppress(OSError):
                total += on_disk(path.stat())
        return total

    def _write(self, image: CachedImage) -> None:
        meta = {
            "url": image.url,
            "etag": image.etag,
            "last_modified": image.last_modified,
            "fresh_until": image.fresh_until,
        }
        header = json.dumps(meta, ensure_ascii=True, separators=(",", ":")).encode("ascii")
        path = self._path(image.url)
        try:
            private_folder(self.folder, tighten=True)
            write_atomically(path, header + b"\n" + image.body, private=True)
            self._stored_since_trim += on_disk(path.stat())  # as `size` counts it
        except OSError as exc:
            log.debug("avatar cache: cannot store %s: %s", address_for_log(image.url), exc)
            return
        if self._stored_since_trim > self.max_bytes // 20:
            self.trim()

    def trim(self) -> None:
        """Remove the least recently used files until the folder fits its size."""
        self._stored_since_trim = 0
        entries = []
        for path in self._files():
            with contextlib.suppress(OSError):
                stat = path.stat()
                entries.append((stat.st_mtime, on_disk(stat), path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(OSError):
                path.unlink()
                total -= size

    def _files(self) -> list[Path]:
        try:
            return [p for p in self.folder.iterdir() if p.suffix == SUFFIX]
        except OSError:
            return []


def on_disk(stat: os.stat_result) -> int:
    """The room a file takes on its disk: whole blocks, where the system counts them.

    An avatar of 5 KB takes 8 KB of a disk with 4 KB blocks: counted by their sizes, a
    cache of 200 MB took 330 MB.
    """
    blocks = getattr(stat, "st_blocks", None)  # not on Windows
    return stat.st_size if blocks is None else max(stat.st_size, blocks * 512)


def _parse_file(content: bytes, url: str) -> CachedImage:
    """The image a file holds for `url`; `DamagedFile` when it holds no such image."""
    header, newline, body = content.partition(b"\n")
    if not newline or len(header) > _HEADER_LIMIT:
        raise DamagedFile(f"it has no header line of at most {_HEADER_LIMIT:,} bytes")
    if len(body) > MAX_IMAGE_BYTES:
        raise DamagedFile(f"its picture is larger than {MAX_IMAGE_BYTES:,} bytes")
    meta = parse_json_object(header)
    if meta.get("url") != url:
        raise DamagedFile("it was stored for another address")
    stated = meta.get("fresh_until")
    try:
        # JSON `true` is a bool, and bool is an int; an integer of 400 digits is no float.
        if isinstance(stated, bool) or not isinstance(stated, int | float):
            raise TypeError(type(stated).__name__)
        fresh_until = float(stated)
    except (TypeError, OverflowError) as error:
        raise DamagedFile("its header has no number for how long it is fresh") from error
    return CachedImage(
        url=url,
        body=body,
        etag=_text_or_none(meta.get("etag")),
        last_modified=_text_or_none(meta.get("last_modified")),
        fresh_until=fresh_until,
    )


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
