"""An avatar's bytes, from the disk cache while fresh, else from its image host.

One set of rules for every avatar request, whether the table shows the picture
(`avatar_loader`) or a vCard carries it (`vcard_photos`). Avatars live on an image
host of their own, so they are fetched with an HTTP client that never carries the
API's token or any cookie. Their addresses come from the API's data and their
redirects from the image host, so redirects are followed here and every address on
the way must pass `AvatarAddressPolicy` before it is asked. A body is refused as soon
as it is known to be larger than allowed. No Qt: the export without a window uses it.
"""

from __future__ import annotations

import asyncio
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx

from cardviewer.api.client import USER_AGENT, tls_context
from cardviewer.services.avatar_address import AddressRefused, AvatarAddressPolicy
from cardviewer.services.avatar_disk_cache import AvatarDiskCache

DEFAULT_TIMEOUT = 20.0
"""Seconds one avatar may take to arrive, from the first byte sent to the last received."""
DEFAULT_MAX_BYTES = 5_000_000
"""The largest avatar downloaded; an avatar is a thumbnail, not a print."""

_SIGNATURES: tuple[tuple[bytes, bytes], ...] = (
    (b"\x89PNG\r\n\x1a\n", b"png"),
    (b"\xff\xd8\xff", b"jpeg"),
    (b"GIF87a", b"gif"),
    (b"GIF89a", b"gif"),
    (b"BM", b"bmp"),
)


class AvatarRejected(Exception):
    """A download or an image that is not used; the text is for the log."""


FETCH_ERRORS: tuple[type[Exception], ...] = (
    httpx.HTTPError,
    httpx.InvalidURL,
    AvatarRejected,
    AddressRefused,
    TimeoutError,
)
"""What a download that did not work raises: expected, told in a line of the log."""


def sniff_image_format(data: bytes) -> bytes | None:
    """The raster format `data` starts like, or None for anything else (SVG included).

    Naming the format up front keeps `QImageReader` from probing every plugin in a
    worker thread, and keeps vector and exotic formats out of the avatar path.
    """
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return b"webp"
    for signature, name in _SIGNATURES:
        if data.startswith(signature):
            return name
    return None


def _lower(headers: httpx.Headers) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def _no_cookies() -> CookieJar:
    """A cookie jar that accepts no cookie from any host, so none is ever sent back."""
    return CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))


class AvatarFetcher:
    """Downloads avatars by the rules above; `fetch` raises what `FETCH_ERRORS` names.

    `keep_downloads` False reads the disk cache without adding to it: an export of a
    whole space would otherwise push out the pictures the window keeps.
    """

    def __init__(
        self,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        timeout: float = DEFAULT_TIMEOUT,
        max_connections: int = 6,
        transport: httpx.AsyncBaseTransport | None = None,
        disk_cache: AvatarDiskCache | None = None,
        keep_downloads: bool = True,
        allow_private_hosts: bool = False,
    ) -> None:
        """`allow_private_hosts` only for an API server on such an address (`is_private_server`)."""
        self.max_bytes = max_bytes
        self.disk_cache = disk_cache
        self.addresses = AvatarAddressPolicy(allow_private_hosts=allow_private_hosts)
        self._keep_downloads = keep_downloads
        self._http = httpx.AsyncClient(
            headers={"User-Agent": USER_AGENT, "Accept": "image/*"},
            cookies=_no_cookies(),
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            follow_redirects=False,  # `_open` follows them, checking every address
            verify=tls_context(),
            transport=transport,
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
        )

    async def fetch(self, url: str) -> bytes:
        """The image's bytes: from the disk cache while fresh, else from its host."""
        cache = self.disk_cache
        cached = await asyncio.to_thread(cache.get, url) if cache is not None else None
        if cached is not None and cached.is_fresh():
            return cached.body
        headers = cached.validators() if cached is not None else {}
        response = await self._open(url, headers)
        try:
            if response.status_code == 304 and cache is not None and cached is not None:
                await asyncio.to_thread(cache.refresh, cached, _lower(response.headers))
                return cached.body
            body = await self._read_capped(response)
        finally:
            await response.aclose()
        # Kept under `url`, the address the card names, wherever the redirects led.
        if cache is not None and self._keep_downloads and sniff_image_format(body) is not None:
            await asyncio.to_thread(cache.put, url, _lower(response.headers), body)
        return body

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _open(self, url: str, headers: dict[str, str]) -> httpx.Response:
        """The streamed response at the end of `url`'s redirects; the caller closes it.

        Each address is checked before it is asked, the first one included: its host
        name may resolve to an address that no card should make the viewer reach.
        """
        address = await self.addresses.check(url)
        redirects = 0
        while True:
            request = self._http.build_request("GET", address, headers=headers)
            response = await self._http.send(request, stream=True)
            if not response.has_redirect_location:
                return response
            await response.aclose()
            redirects += 1
            address = self.addresses.redirect(address, response.headers["Location"], redirects)
            address = await self.addresses.check(address)

    async def _read_capped(self, response: httpx.Response) -> bytes:
        """The response body, refused as soon as it is known to exceed `max_bytes`."""
        if response.status_code != 200:
            raise AvatarRejected(f"HTTP {response.status_code}")
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise AvatarRejected(f"{declared} bytes is more than allowed")
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > self.max_bytes:
                raise AvatarRejected(f"more than {self.max_bytes} bytes")
        return bytes(body)
