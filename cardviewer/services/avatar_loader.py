"""Avatar thumbnails for the card table: fetched without credentials, decoded off the GUI thread.

Avatars live on an image host of their own, so they are fetched with a separate HTTP
client that never carries the API's token or any cookie. Their addresses come from the
API's data and their redirects from the image host, so redirects are followed by hand
and every address on the way must pass `AvatarAddressPolicy` before it is asked: a
hostile server cannot point the viewer at this computer or the local network, nor
downgrade it from https to http. `AvatarFetcher` does this, for vCards' photos too.

Downloads are few at a time and capped in size; the image is decoded and scaled in a
worker thread (`QImageReader.read()` releases the GIL, `QImage.scaled` does not), and
only the final `QPixmap` is made on the GUI thread. A failed or refused avatar is
remembered and shows the placeholder; it never interrupts the person with a message.

Downloaded images are also kept on disk, in the user's cache folder, with their HTTP
validators (`AvatarDiskCache`): within the image host's `Cache-Control` lifetime an
avatar is used without a request, and after it a conditional request costs a 304
instead of the image. A restart re-downloads nothing.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QGuiApplication,
    QImage,
    QImageReader,
    QPainter,
    QPalette,
    QPixmap,
)
from PySide6.QtSvg import QSvgRenderer

from cardviewer.paths import cache_dir, resource_path
from cardviewer.services.avatar_address import AddressRefused, address_for_log
from cardviewer.services.avatar_disk_cache import FOLDER as DISK_CACHE_FOLDER
from cardviewer.services.avatar_disk_cache import AvatarDiskCache
from cardviewer.services.avatar_fetch import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    FETCH_ERRORS,
    AvatarFetcher,
    AvatarRejected,
    sniff_image_format,
)
from cardviewer.tasks import TaskSet

log = logging.getLogger(__name__)

PLACEHOLDER_RESOURCE = "avatar-placeholder.svg"
PLACEHOLDER_DISC = "#D7DCE2"
PLACEHOLDER_FIGURE = "#9AA5B1"
"""The colours of the placeholder picture's disc and figure, as the file has them: they
are replaced by colours mixed from the palette, so it is light on a light palette and
dark on a dark one."""
DISC_TINT = 0.12
FIGURE_TINT = 0.55
"""How much of the palette's text colour, over its fields' background, the disc and the
figure get: the figure then stands out from its disc at 3:1 or more, light or dark."""
MAX_PER_HOST = 4
"""Downloads from one image host at once; the rest of `max_in_flight` serves other hosts."""
DEFAULT_MAX_PIXELS = 40_000_000
"""The most pixels a picture may have to be decoded: a phone's photo, not a poster."""


def _host(url: str) -> str:
    try:
        return urlsplit(url).netloc.lower()
    except ValueError:
        return ""


def decode_thumbnail(data: bytes, side: int, max_pixels: int) -> QImage:
    """Decode `data` straight to a `side` x `side` round thumbnail; runs in a worker thread.

    The image's size is checked against `max_pixels` before any pixel is decoded, and
    the reader scales while decoding (JPEG even skips most of the work), so a photo of
    many megapixels never exists in memory at full size.
    """
    image, problem = read_scaled(data, side, max_pixels)
    if image is None:
        raise AvatarRejected(problem)
    square = image.copy(
        (image.width() - side) // 2, (image.height() - side) // 2, side, side
    ).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    return _round(square, side)


def read_scaled(data: bytes, side: int, max_pixels: int) -> tuple[QImage | None, str]:
    """The image scaled to cover `side` x `side`, or None and why not.

    Returns rather than raises, so the buffer and reader end here, in this thread, and
    no traceback carries them elsewhere.
    """
    image_format = sniff_image_format(data)
    if image_format is None:
        return None, "not an image (PNG, JPEG, GIF, WebP or BMP)"
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    try:
        reader = QImageReader(buffer, QByteArray(image_format))
        reader.setDecideFormatFromContent(False)
        reader.setAutoTransform(True)
        if not reader.canRead():
            return None, f"not an image: {reader.errorString()}"
        full = reader.size()
        if not full.isValid() or full.isEmpty():
            return None, "the image does not state its size"
        if full.width() * full.height() > max_pixels:
            return None, f"{full.width()} x {full.height()} pixels is more than allowed"
        # Scale so the shorter side fills the thumbnail; the caller cuts the middle square.
        factor = side / min(full.width(), full.height())
        reader.setScaledSize(
            QSize(max(side, round(full.width() * factor)), max(side, round(full.height() * factor)))
        )
        image = reader.read()
        if image.isNull():
            return None, f"cannot decode the image: {reader.errorString()}"
        return image, ""
    finally:
        buffer.close()


def _round(square: QImage, side: int) -> QImage:
    """The square cut to a disc with a smooth edge (a textured brush, antialiased)."""
    out = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(Qt.GlobalColor.transparent)
    painter = QPainter(out)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(square))
        painter.drawEllipse(QRectF(0, 0, side, side))
    finally:
        painter.end()
    return out


class AvatarLoader(QObject):
    """Loads avatar thumbnails on request and keeps the most recently used ones.

    `request(url)` queues a download unless the avatar is cached, failed or already
    on its way; at most `max_in_flight` run at once, the most recently requested
    first. `avatarReady(url)` says when `pixmap(url)` has it, `avatarFailed(url)` when
    it never will (until `clear()`).
    """

    avatarReady = Signal(str)
    avatarFailed = Signal(str)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        size: int = 32,
        max_in_flight: int = 6,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_pixels: int = DEFAULT_MAX_PIXELS,
        cache_entries: int = 512,
        timeout: float = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        disk_cache: Path | None = None,
        use_disk_cache: bool = True,
        allow_private_hosts: bool = False,
    ) -> None:
        """`allow_private_hosts` only for an API server on such an address (`is_private_server`)."""
        super().__init__(parent)
        if min(size, max_in_flight, max_bytes, max_pixels, cache_entries) < 1:
            raise ValueError("sizes and limits of the avatar loader must be positive")
        self._size = size
        self._max_pixels = max_pixels
        self._cache_entries = cache_entries
        self._timeout = timeout
        self._cache: OrderedDict[str, QPixmap] = OrderedDict()
        self._failed: set[str] = set()
        self._max_in_flight = max_in_flight
        # Requested but not yet downloading, the most recent request last; taken from the
        # end, so the page on screen loads before pages the person has already left.
        self._waiting: OrderedDict[str, None] = OrderedDict()
        self._active: dict[str, asyncio.Task[None]] = {}
        self._placeholders: dict[tuple[float, int, int], QPixmap] = {}
        self._epoch = 0
        self._closed = False
        self._tasks = TaskSet()
        self._per_host: dict[str, int] = {}
        self.disk_cache = (
            AvatarDiskCache((disk_cache or cache_dir()) / DISK_CACHE_FOLDER)
            if use_disk_cache
            else None
        )
        self._fetcher = AvatarFetcher(
            max_bytes=max_bytes,
            timeout=timeout,
            max_connections=max_in_flight,
            transport=transport,
            disk_cache=self.disk_cache,
            allow_private_hosts=allow_private_hosts,
        )

    @property
    def size(self) -> int:
        """Width and height of a thumbnail in logical pixels."""
        return self._size

    @property
    def allow_private_hosts(self) -> bool:
        """Whether avatars may come from loopback or a private network, as the server does."""
        return self._fetcher.addresses.allow_private_hosts

    @property
    def loading(self) -> int:
        """How many avatars are on their way (waiting for a slot or downloading)."""
        return len(self._waiting) + len(self._active)

    def device_pixel_ratio(self) -> float:
        """Thumbnails have as many pixels as the primary screen shows in their place."""
        if QGuiApplication.instance() is None:
            return 1.0
        screen = QGuiApplication.primaryScreen()
        return screen.devicePixelRatio() if screen is not None else 1.0

    # Asking for avatars

    def request(self, url: str | None) -> None:
        """Load `url` unless it is loaded or failed; asking again moves it up the queue."""
        if not url or self._closed:
            return
        if url in self._cache or url in self._failed or url in self._active:
            return
        if url in self._waiting:
            self._waiting.move_to_end(url)
            return
        try:
            self._fetcher.addresses.check_form(url)
        except AddressRefused as exc:
            log.debug("avatar refused: %s", exc)
            self._mark_failed(url)
            return
        self._waiting[url] = None
        if len(self._waiting) > self._cache_entries:
            # Requests so old that their pictures would be evicted at once; asked again if shown.
            self._waiting.popitem(last=False)
        self._start_downloads()

    def pixmap(self, url: str | None) -> QPixmap | None:
        """The round thumbnail, or None while it is loading, after a failure or for no url."""
        if not url:
            return None
        pixmap = self._cache.get(url)
        if pixmap is not None:
            self._cache.move_to_end(url)
        return pixmap

    def failed(self, url: str | None) -> bool:
        return url is not None and url in self._failed

    def placeholder(self) -> QPixmap:
        """The neutral round picture shown until (or instead of) a card's own.

        Its colours are the application palette's at the time of asking: ask again
        when the palette changes.
        """
        ratio = self.device_pixel_ratio()
        disc, figure = _placeholder_colours()
        key = (ratio, disc.rgba(), figure.rgba())
        pixmap = self._placeholders.get(key)
        if pixmap is None:
            pixmap = self._render_placeholder(ratio, disc, figure)
            self._placeholders[key] = pixmap
        return pixmap

    def clear(self) -> None:
        """Forget every thumbnail and failure and stop the downloads under way."""
        self._epoch += 1
        self._waiting.clear()
        for task in self._active.values():
            task.cancel()
        self._active.clear()
        self._per_host.clear()
        self._cache.clear()
        self._failed.clear()

    async def aclose(self) -> None:
        """Stop all downloads, wait for them to end and close the connections."""
        self._closed = True
        self._epoch += 1
        self._waiting.clear()
        await self._tasks.aclose()
        self._active.clear()
        self._per_host.clear()
        await self._fetcher.aclose()

    # Loading

    def _start_downloads(self) -> None:
        """Fill the free download slots, newest request first: the page on screen wins."""
        if self._closed:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            log.debug("avatars wait: no event loop is running")
            return
        if not self._waiting or len(self._active) >= self._max_in_flight:
            return
        # Newest first, skipping hosts that already have their share of downloads.
        for url in reversed(list(self._waiting)):
            if len(self._active) >= self._max_in_flight:
                break
            host = _host(url)
            if self._per_host.get(host, 0) >= MAX_PER_HOST:
                continue
            del self._waiting[url]
            self._per_host[host] = self._per_host.get(host, 0) + 1
            self._active[url] = self._tasks.start(self._load(url, self._epoch))

    async def _load(self, url: str, epoch: int) -> None:
        ratio = self.device_pixel_ratio()
        side = max(1, math.ceil(self._size * ratio))
        try:
            async with asyncio.timeout(self._timeout):
                data = await self._fetcher.fetch(url)
            # Still holding the download slot, so decoding is bounded by it as well.
            image = await asyncio.to_thread(decode_thumbnail, data, side, self._max_pixels)
        except asyncio.CancelledError:
            return  # quietly: see `CardTableModel._load` on why a task should not end cancelled
        except FETCH_ERRORS as exc:
            if epoch == self._epoch:
                log.debug(
                    "avatar %s not loaded: %s", address_for_log(url), str(exc) or type(exc).__name__
                )
                self._mark_failed(url)
            return
        except Exception:
            if epoch == self._epoch:
                log.warning("avatar %s not loaded", address_for_log(url), exc_info=True)
                self._mark_failed(url)
            return
        finally:
            if self._active.get(url) is asyncio.current_task():
                del self._active[url]
                self._release_host(url)
                self._start_downloads()
        if epoch != self._epoch:
            return
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(ratio)
        self._remember(url, pixmap)
        self.avatarReady.emit(url)

    def _release_host(self, url: str) -> None:
        host = _host(url)
        left = self._per_host.get(host, 0) - 1
        if left > 0:
            self._per_host[host] = left
        else:
            self._per_host.pop(host, None)

    def _remember(self, url: str, pixmap: QPixmap) -> None:
        self._cache[url] = pixmap
        self._cache.move_to_end(url)
        while len(self._cache) > self._cache_entries:
            self._cache.popitem(last=False)

    def _mark_failed(self, url: str) -> None:
        self._failed.add(url)
        self.avatarFailed.emit(url)

    def _render_placeholder(self, ratio: float, disc: QColor, figure: QColor) -> QPixmap:
        side = max(1, math.ceil(self._size * ratio))
        square = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
        square.fill(disc)
        source = resource_path(PLACEHOLDER_RESOURCE)
        renderer: QSvgRenderer | None
        try:
            picture = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            log.warning("the avatar placeholder %s is missing", PLACEHOLDER_RESOURCE)
            renderer = None
        else:
            picture = picture.replace(PLACEHOLDER_DISC, disc.name())
            picture = picture.replace(PLACEHOLDER_FIGURE, figure.name())
            renderer = QSvgRenderer(QByteArray(picture.encode()))
        if renderer is not None and renderer.isValid():
            painter = QPainter(square)
            try:
                painter.setRenderHint(QPainter.RenderHint.Antialiasing)
                renderer.render(painter, QRectF(0, 0, side, side))
            finally:
                painter.end()
        # Cut like the avatars, whatever parts of SVG the renderer supports.
        pixmap = QPixmap.fromImage(_round(square, side))
        pixmap.setDevicePixelRatio(ratio)
        return pixmap


def _placeholder_colours() -> tuple[QColor, QColor]:
    """The placeholder's disc and figure, mixed from the application palette."""
    palette = QGuiApplication.palette()
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    return _mix(base, text, DISC_TINT), _mix(base, text, FIGURE_TINT)


def _mix(base: QColor, tint: QColor, amount: float) -> QColor:
    """`amount` of `tint` over `base` (0 → base, 1 → tint), opaque."""
    return QColor.fromRgbF(
        base.redF() + (tint.redF() - base.redF()) * amount,
        base.greenF() + (tint.greenF() - base.greenF()) * amount,
        base.blueF() + (tint.blueF() - base.blueF()) * amount,
    )
