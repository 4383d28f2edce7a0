"""The avatar loader against the demo's image host: thumbnails, failures, limits, privacy."""

from __future__ import annotations

import itertools
import logging
import socket
from types import SimpleNamespace

import httpx
import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSizeF
from PySide6.QtGui import QColor, QGuiApplication, QImage, QImageWriter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication

from cardviewer.api import CardPage, CardsClient
from cardviewer.demo import Fault
from cardviewer.demo.avatars import colour_for
from cardviewer.services.avatar_address import MAX_REDIRECTS
from cardviewer.services.avatar_fetch import AvatarRejected, sniff_image_format
from cardviewer.services.avatar_loader import MAX_PER_HOST, AvatarLoader, decode_thumbnail

WAIT = 15_000


@pytest.fixture
def loaders(qloop, arun):
    """Loaders that are closed (downloads cancelled, connections shut) after the test."""
    made: list[AvatarLoader] = []
    yield made
    for loader in made:
        arun(loader.aclose())


@pytest.fixture
def make_loader(loaders):
    """Loaders for the demo's image host, which is on loopback as the demo API server is."""

    def make(**options) -> AvatarLoader:
        loader = AvatarLoader(allow_private_hosts=True, **options)
        loaders.append(loader)
        return loader

    return make


@pytest.fixture
def page(demo_server, arun):
    """Page 1 of the demo space, fetched as the viewer does: signed in, with a token."""

    async def fetch() -> CardPage:
        async with CardsClient(demo_server.base_url) as client:
            await client.login(demo_server.email, demo_server.password)
            return await client.list_cards(demo_server.space_id, 1)

    return arun(fetch())


def own_avatars(page) -> list[tuple[str, str]]:
    """(url, avatar uuid) of the cards on the page that have a picture of their own."""
    return [
        (card.avatar.src, card.avatar.uuid)
        for card in page.cards
        if card.avatar is not None and not card.avatar.is_default
    ]


def load(qtbot, loader: AvatarLoader, url: str) -> QPixmap:
    with qtbot.waitSignal(loader.avatarReady, timeout=WAIT, check_params_cb=lambda u: u == url):
        loader.request(url)
    pixmap = loader.pixmap(url)
    assert pixmap is not None
    return pixmap


def fail(qtbot, loader: AvatarLoader, url: str) -> None:
    with qtbot.waitSignal(loader.avatarFailed, timeout=WAIT, check_params_cb=lambda u: u == url):
        loader.request(url)
    assert loader.failed(url)
    assert loader.pixmap(url) is None


def alpha(image: QImage, x: int, y: int) -> int:
    return image.pixelColor(x, y).alpha()


def close_to(colour: QColor, rgb: tuple[int, int, int], tolerance: int = 16) -> bool:
    channels = (colour.red(), colour.green(), colour.blue())
    return all(abs(a - b) <= tolerance for a, b in zip(channels, rgb, strict=True))


# Loading


def test_loads_a_round_thumbnail(qtbot, make_loader, page):
    loader = make_loader()
    url, avatar_uuid = own_avatars(page)[0]
    pixmap = load(qtbot, loader, url)
    image = pixmap.toImage()
    assert (image.width(), image.height()) == (32, 32)
    assert pixmap.devicePixelRatio() == 1.0
    assert alpha(image, 0, 0) == 0  # corners are cut off
    assert alpha(image, 31, 31) == 0
    assert alpha(image, 16, 16) == 255
    # Left of the initials the picture shows the avatar's colour: decoded, not a blank.
    assert close_to(image.pixelColor(4, 16), colour_for(avatar_uuid))
    assert not loader.failed(url)
    assert loader.loading == 0


def test_thumbnail_has_the_screens_pixels(qtbot, make_loader, page, monkeypatch):
    loader = make_loader(size=40)
    monkeypatch.setattr(loader, "device_pixel_ratio", lambda: 2.0)
    pixmap = load(qtbot, loader, own_avatars(page)[0][0])
    assert (pixmap.width(), pixmap.height()) == (80, 80)
    assert pixmap.devicePixelRatio() == 2.0
    assert pixmap.deviceIndependentSize() == QSizeF(40, 40)
    placeholder = loader.placeholder()
    assert (placeholder.width(), placeholder.devicePixelRatio()) == (80, 2.0)


def test_each_avatar_is_downloaded_once(qtbot, make_loader, page, demo_server):
    loader = make_loader()
    url = own_avatars(page)[0][0]
    with qtbot.waitSignal(loader.avatarReady, timeout=WAIT):
        for _ in range(5):
            loader.request(url)
    loader.request(url)
    fetched = [r for r in demo_server.requests if r.server == "avatar"]
    assert len(fetched) == 1
    assert fetched[0].path in url


def test_placeholder_is_round_and_sized(qapp, make_loader):
    placeholder = make_loader(size=24).placeholder()
    image = placeholder.toImage()
    assert (image.width(), image.height()) == (24, 24)
    assert alpha(image, 0, 0) == 0
    assert alpha(image, 12, 12) == 255


def test_placeholder_is_drawn_in_the_application_palette_s_colours(qapp, make_loader):
    loader = make_loader(size=64)
    light = loader.placeholder()
    assert loader.placeholder().cacheKey() == light.cacheKey()  # drawn once per palette
    before = QGuiApplication.palette()
    dark = QPalette(QColor("#2d2d2d"), QColor("#353535"))  # button, window
    dark.setColor(QPalette.ColorRole.Base, QColor("#2d2d2d"))
    dark.setColor(QPalette.ColorRole.Text, QColor("#eeeeec"))
    try:
        QApplication.setPalette(dark)
        shown = loader.placeholder().toImage()
    finally:
        QApplication.setPalette(before)
    disc, figure = shown.pixelColor(32, 6), shown.pixelColor(32, 25)  # above and in the head
    assert disc.lightness() < 80  # dark on a dark palette
    assert figure.lightness() > disc.lightness()
    light_disc = light.toImage().pixelColor(32, 6)
    assert light_disc.lightness() > 180
    assert light.toImage().pixelColor(32, 25).lightness() < light_disc.lightness()
    assert loader.placeholder().cacheKey() == light.cacheKey()


def test_no_url_means_nothing_to_load(qapp, make_loader, demo_server):
    loader = make_loader()
    loader.request(None)
    loader.request("")
    assert loader.pixmap(None) is None
    assert not loader.failed(None)
    assert loader.loading == 0
    assert demo_server.requests == []


# Failures: the placeholder stays, nobody is bothered


@pytest.mark.parametrize("path", ["/avatars/nobody.jpg", "/avatars/broken.jpg"])
def test_missing_or_broken_image_fails_quietly(qtbot, make_loader, demo_server, caplog, path):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.avatar_loader")
    loader = make_loader()
    ready: list[str] = []
    loader.avatarReady.connect(ready.append)
    fail(qtbot, loader, demo_server.avatar_base_url + path)
    assert ready == []
    records = [r for r in caplog.records if r.name == "cardviewer.services.avatar_loader"]
    assert records
    assert all(r.levelno == logging.DEBUG for r in records)


def test_a_web_page_instead_of_the_image_fails(qtbot, make_loader, demo_server, page):
    demo_server.faults.inject(Fault.WRONG_TYPES, target="avatar")
    fail(qtbot, make_loader(), own_avatars(page)[0][0])


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://cdn.example/a.jpg",
        "data:image/png;base64,AAAA",
        "a.jpg",
        "http://",
    ],
)
def test_only_web_addresses_are_fetched(qtbot, make_loader, demo_server, url):
    loader = make_loader()
    fail(qtbot, loader, url)
    assert loader.loading == 0
    assert demo_server.requests == []


def test_slow_avatar_times_out(qtbot, make_loader, demo_server, page):
    demo_server.config.avatar_latency = 5.0
    fail(qtbot, make_loader(timeout=0.3), own_avatars(page)[0][0])


def test_failure_is_remembered_until_cleared(qtbot, make_loader, demo_server):
    loader = make_loader()
    url = demo_server.avatar_base_url + "/avatars/nobody.jpg"
    fail(qtbot, loader, url)
    loader.request(url)
    assert loader.loading == 0
    loader.clear()
    assert not loader.failed(url)
    fail(qtbot, loader, url)
    assert len([r for r in demo_server.requests if r.server == "avatar"]) == 2


# Limits


def test_too_many_bytes_are_refused(qtbot, make_loader, page):
    fail(qtbot, make_loader(max_bytes=2_000), own_avatars(page)[0][0])


def test_huge_image_is_scaled_while_decoding(qtbot, make_loader, demo_server):
    pixmap = load(qtbot, make_loader(), demo_server.avatar_base_url + "/avatars/huge.jpg")
    assert (pixmap.width(), pixmap.height()) == (32, 32)


def test_too_many_pixels_are_refused_before_decoding(qtbot, make_loader, demo_server):
    fail(
        qtbot, make_loader(max_pixels=4_000_000), demo_server.avatar_base_url + "/avatars/huge.jpg"
    )


class CountingTransport(httpx.AsyncBaseTransport):
    """Real HTTP, counting the downloads open at the same time (until their body is read)."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.open = 0
        self.peak = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.open += 1
        self.peak = max(self.peak, self.open)
        try:
            response = await self._inner.handle_async_request(request)
        except BaseException:
            self.open -= 1
            raise
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Counted(response.stream, self),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


class _Counted(httpx.AsyncByteStream):
    def __init__(self, inner, transport: CountingTransport) -> None:
        self._inner = inner
        self._transport = transport
        self._closed = False

    async def __aiter__(self):
        async for chunk in self._inner:
            yield chunk

    async def aclose(self) -> None:
        if not self._closed:
            self._closed = True
            self._transport.open -= 1
        await self._inner.aclose()


def test_downloads_in_flight_are_bounded(qtbot, make_loader, demo_server, page):
    demo_server.config.avatar_latency = 0.2
    transport = CountingTransport()
    loader = make_loader(max_in_flight=2, transport=transport)
    urls = [url for url, _ in own_avatars(page)]
    assert len(urls) > 4
    for url in urls:
        loader.request(url)
    assert loader.loading == len(urls)
    qtbot.waitUntil(lambda: all(loader.pixmap(u) is not None for u in urls), timeout=WAIT)
    assert transport.peak == 2
    assert transport.open == 0
    assert loader.loading == 0


def test_newest_request_is_served_first(qtbot, make_loader, demo_server, page):
    """After paging on, the page on screen should not wait for the pages left behind."""
    demo_server.config.avatar_latency = 0.05
    loader = make_loader(max_in_flight=1)
    urls = [url for url, _ in own_avatars(page)][:4]
    arrived: list[str] = []
    loader.avatarReady.connect(arrived.append)
    for url in urls:
        loader.request(url)
    qtbot.waitUntil(lambda: len(arrived) == 4, timeout=WAIT)
    assert arrived == [urls[0], urls[3], urls[2], urls[1]]


def test_cache_keeps_the_most_recently_used(qtbot, make_loader, page):
    loader = make_loader(cache_entries=2)
    a, b, c = (url for url, _ in own_avatars(page)[:3])
    load(qtbot, loader, a)
    load(qtbot, loader, b)
    assert loader.pixmap(a) is not None  # a is now more recent than b
    load(qtbot, loader, c)
    assert loader.pixmap(b) is None
    assert loader.pixmap(a) is not None
    assert loader.pixmap(c) is not None


# Privacy


def test_avatar_host_never_sees_the_token_or_cookies(qtbot, make_loader, demo_server, page):
    api = [r for r in demo_server.requests if r.server == "api" and r.path.startswith("/v1/spaces")]
    assert api
    assert api[0].headers["authorization"].startswith("Bearer ")  # the viewer had a token
    token = api[0].headers["authorization"].removeprefix("Bearer ")
    loader = make_loader()
    urls = [url for url, _ in own_avatars(page)]
    for url in urls:
        loader.request(url)
    qtbot.waitUntil(lambda: all(loader.pixmap(u) is not None for u in urls), timeout=WAIT)
    fetched = [r for r in demo_server.requests if r.server == "avatar"]
    assert len(fetched) == len(urls)
    for request in fetched:
        assert "authorization" not in request.headers
        assert "cookie" not in request.headers
        assert not any(token in value for value in request.headers.values())


def encode_png(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert QImageWriter(buffer, QByteArray(b"png")).write(image)
    buffer.close()
    return bytes(data.data())


def png_bytes(width: int = 8, height: int = 8, colour: str = "red") -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    return encode_png(image)


def test_cookies_set_by_the_image_host_are_not_sent_back(qtbot, make_loader):
    seen: list[httpx.Request] = []

    def image_host(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            200,
            content=png_bytes(),
            headers={"Content-Type": "image/png", "Set-Cookie": "tracker=1; Path=/"},
        )

    loader = make_loader(transport=httpx.MockTransport(image_host))
    load(qtbot, loader, "https://cdn.example/avatars/a.png")
    load(qtbot, loader, "https://cdn.example/avatars/b.png")
    assert len(seen) == 2
    assert "cookie" not in seen[1].headers


# Lifetime


def test_clear_forgets_thumbnails_and_stops_downloads(qtbot, make_loader, demo_server, page):
    loader = make_loader()
    first, second = (url for url, _ in own_avatars(page)[:2])
    load(qtbot, loader, first)
    demo_server.config.avatar_latency = 5.0
    loader.request(second)
    assert loader.loading == 1
    loader.clear()
    assert loader.loading == 0
    assert loader.pixmap(first) is None
    demo_server.config.avatar_latency = 0.0
    load(qtbot, loader, first)


def test_close_cancels_downloads_under_way(qtbot, arun, make_loader, demo_server, page):
    demo_server.config.avatar_latency = 30.0
    loader = make_loader()
    for url, _ in own_avatars(page):
        loader.request(url)
    assert loader.loading > 0
    arun(loader.aclose(), timeout=5_000)
    assert loader.loading == 0
    loader.request(own_avatars(page)[0][0])
    assert loader.loading == 0


# Decoding (what runs in the worker thread)


def middle_third_blue(width: int, height: int) -> QImage:
    """A red picture whose middle third along its longer side is blue."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    wide = width > height
    for x in range(width // 3, 2 * width // 3) if wide else range(width):
        for y in range(height) if wide else range(height // 3, 2 * height // 3):
            image.setPixelColor(x, y, QColor("blue"))
    return image


def test_decode_cuts_the_middle_of_a_wide_picture(qapp):
    thumbnail = decode_thumbnail(encode_png(middle_third_blue(300, 100)), 20, 1_000_000)
    assert (thumbnail.width(), thumbnail.height()) == (20, 20)
    assert thumbnail.pixelColor(10, 10) == QColor("blue")
    assert thumbnail.pixelColor(1, 10).blue() > 200  # still the middle, not the red sides
    assert thumbnail.hasAlphaChannel()
    assert thumbnail.pixelColor(0, 0).alpha() == 0


def test_decode_cuts_the_middle_of_a_tall_picture(qapp):
    thumbnail = decode_thumbnail(encode_png(middle_third_blue(100, 300)), 20, 1_000_000)
    assert (thumbnail.width(), thumbnail.height()) == (20, 20)
    assert thumbnail.pixelColor(10, 10) == QColor("blue")
    assert thumbnail.pixelColor(10, 1).blue() > 200  # the middle, not the red top
    assert thumbnail.pixelColor(10, 18).blue() > 200  # nor the red bottom


def test_decode_refuses_non_images_and_too_many_pixels(qapp):
    with pytest.raises(AvatarRejected, match="not an image"):
        decode_thumbnail(b"<html>Sign in to the Wi-Fi</html>", 32, 1_000_000)
    with pytest.raises(AvatarRejected, match="more than allowed"):
        decode_thumbnail(png_bytes(100, 100), 32, 9_999)
    assert not decode_thumbnail(png_bytes(100, 100), 32, 10_000).isNull()


def test_vector_images_are_not_avatars(qapp):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect/></svg>'
    with pytest.raises(AvatarRejected, match="not an image"):
        decode_thumbnail(svg, 32, 1_000_000)


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b"\x89PNG\r\n\x1a\n....", b"png"),
        (b"\xff\xd8\xff\xe0....", b"jpeg"),
        (b"GIF89a....", b"gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"webp"),
        (b"BM......", b"bmp"),
        (b"RIFF\x00\x00\x00\x00WAVEfmt ", None),
        (b"<?xml version='1.0'?><svg/>", None),
        (b"", None),
    ],
)
def test_the_format_is_named_by_the_first_bytes(head, expected):
    assert sniff_image_format(head) == expected


def test_a_body_that_only_starts_like_an_image_is_refused(qapp):
    broken = b"\xff\xd8\xff\xe0" + b"not image data" * 20
    with pytest.raises(AvatarRejected):
        decode_thumbnail(broken, 32, 1_000_000)


def test_limits_must_be_positive(qapp):
    with pytest.raises(ValueError, match="positive"):
        AvatarLoader(max_in_flight=0)


# The disk cache and the per-host bound


def avatar_requests(demo_server) -> list[str]:
    return [r.path for r in demo_server.requests if r.server == "avatar"]


def test_a_restart_downloads_nothing_again(qtbot, make_loader, demo_server, page):
    urls = [url for url, _ in own_avatars(page)]
    first = make_loader()
    for url in urls:
        load(qtbot, first, url)
    assert len(avatar_requests(demo_server)) == len(urls)
    demo_server.clear_requests()
    second = make_loader()  # a new start: empty memory, the same cache folder
    for url in urls:
        load(qtbot, second, url)
    assert avatar_requests(demo_server) == []


def test_the_disk_cache_can_be_turned_off(qtbot, make_loader, demo_server, page):
    url = own_avatars(page)[0][0]
    load(qtbot, make_loader(use_disk_cache=False), url)
    load(qtbot, make_loader(use_disk_cache=False), url)
    assert len(avatar_requests(demo_server)) == 2


def test_a_stale_avatar_is_revalidated_not_downloaded(qtbot, make_loader, demo_server, page):
    url = own_avatars(page)[0][0]
    load(qtbot, make_loader(), url)
    cache = make_loader().disk_cache
    stored = cache.get(url)
    cache.refresh(stored, {"cache-control": "max-age=0"})  # stale from now on
    demo_server.clear_requests()
    load(qtbot, make_loader(), url)
    (request,) = [r for r in demo_server.requests if r.server == "avatar"]
    assert request.headers["if-none-match"] == stored.etag
    assert cache.get(url).is_fresh()  # the 304 made it fresh again


def test_a_damaged_cache_file_costs_a_download_not_the_avatar(
    qtbot, make_loader, demo_server, page
):
    url = own_avatars(page)[0][0]
    load(qtbot, make_loader(), url)
    cache = make_loader().disk_cache
    (path,) = list(cache.folder.iterdir())
    path.write_bytes(b"\x00garbage without a header")
    demo_server.clear_requests()
    load(qtbot, make_loader(), url)
    assert len(avatar_requests(demo_server)) == 1


def test_a_web_page_instead_of_an_image_is_not_kept(qtbot, make_loader, demo_server, page):
    url = own_avatars(page)[0][0]
    demo_server.faults.inject(Fault.WRONG_TYPES, times=1, target="avatar")
    fail(qtbot, make_loader(), url)
    assert make_loader().disk_cache.get(url) is None


def test_an_unwritable_cache_folder_costs_downloads_not_avatars(
    qtbot, make_loader, demo_server, page, tmp_path
):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")  # the cache folder cannot be made below a file
    url = own_avatars(page)[0][0]
    load(qtbot, make_loader(disk_cache=blocked), url)


def test_one_host_gets_a_bounded_share_of_downloads(qtbot, make_loader, demo_server, page):
    demo_server.config.avatar_latency = 0.2
    transport = CountingTransport()
    loader = make_loader(max_in_flight=8, transport=transport, use_disk_cache=False)
    urls = [url for url, _ in own_avatars(page)]
    assert len(urls) > MAX_PER_HOST
    for url in urls:
        loader.request(url)
    qtbot.waitUntil(lambda: all(loader.pixmap(u) is not None for u in urls), timeout=WAIT)
    assert transport.peak == MAX_PER_HOST


# Addresses and redirects: a hostile API or image host cannot send the viewer anywhere

PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"


@pytest.fixture
def dns(qloop, monkeypatch):
    """A resolver for made-up host names, so no test asks the network; unknown names fail."""
    names: dict[str, list[str]] = {
        "cdn.example": [PUBLIC_V4],
        "images.example": [PUBLIC_V6, PUBLIC_V4],
        "rebind.example": ["127.0.0.1"],
        "mixed.example": [PUBLIC_V4, "10.1.2.3"],
    }
    asked: list[str] = []

    async def getaddrinfo(host, port, *, family=0, type=0, proto=0, flags=0):
        asked.append(host)
        if host not in names:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6 if ":" in ip else socket.AF_INET, type, 6, "", (ip, 0))
            for ip in names[host]
        ]

    monkeypatch.setattr(qloop, "getaddrinfo", getaddrinfo)
    return SimpleNamespace(names=names, asked=asked)


class ImageHost:
    """Hosts behind `httpx.MockTransport`: redirects where told, an image everywhere else."""

    def __init__(self, redirects: dict[str, str] | None = None) -> None:
        self.redirects = redirects or {}
        self.asked: list[str] = []
        self.image = png_bytes()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        self.asked.append(url)
        location = self.redirects.get(url)
        if location is not None:
            return httpx.Response(302, headers={"Location": location})
        return httpx.Response(
            200,
            content=self.image,
            headers={"Content-Type": "image/png", "Cache-Control": "max-age=3600"},
        )


@pytest.fixture
def host_loader(loaders, dns):
    """A loader as the viewer makes it for a public API server, over `ImageHost`."""

    def make(host: ImageHost, **options) -> AvatarLoader:
        options.setdefault("use_disk_cache", False)
        loader = AvatarLoader(transport=httpx.MockTransport(host), **options)
        loaders.append(loader)
        return loader

    return make


SRC = "https://cdn.example/avatars/a.png"


def test_a_redirect_from_https_to_http_is_refused(qtbot, host_loader):
    host = ImageHost({SRC: "http://cdn.example/avatars/a.png"})
    fail(qtbot, host_loader(host), SRC)
    assert host.asked == [SRC]


@pytest.mark.parametrize(
    "target",
    [
        "https://127.0.0.1/a.png",
        "https://127.0.0.1:8443/a.png",
        "https://[::1]/a.png",
        "https://[::ffff:127.0.0.1]/a.png",
        "http://169.254.169.254/latest/meta-data/",
        "https://10.0.0.7/a.png",
        "https://192.168.1.1/a.png",
        "https://localhost/a.png",
        "https://rebind.example/a.png",
        "https://mixed.example/a.png",
    ],
)
def test_a_redirect_to_this_computer_or_the_local_network_is_refused(qtbot, host_loader, target):
    src = "http://cdn.example/avatars/a.png"  # from http, so only the target is at fault
    host = ImageHost({src: target})
    fail(qtbot, host_loader(host), src)
    assert host.asked == [src]


def test_a_redirect_to_another_scheme_is_refused(qtbot, host_loader):
    host = ImageHost({SRC: "file:///etc/passwd"})
    fail(qtbot, host_loader(host), SRC)
    assert host.asked == [SRC]


def hops(count: int) -> dict[str, str]:
    """A chain of `count` redirects from SRC on public hosts, ending at an image."""
    chain = [SRC] + [f"https://images.example/hop/{n}.png" for n in range(1, count + 1)]
    return dict(itertools.pairwise(chain))


def test_a_chain_of_redirects_longer_than_the_limit_is_refused(qtbot, host_loader):
    host = ImageHost(hops(MAX_REDIRECTS + 1))
    fail(qtbot, host_loader(host), SRC)
    assert len(host.asked) == MAX_REDIRECTS + 1  # the last target is never asked


def test_a_chain_of_redirects_up_to_the_limit_is_followed(qtbot, host_loader):
    host = ImageHost(hops(MAX_REDIRECTS))
    load(qtbot, host_loader(host), SRC)
    assert len(host.asked) == MAX_REDIRECTS + 1


def test_a_relative_redirect_on_the_same_host_is_followed(qtbot, host_loader):
    host = ImageHost({SRC: "../v2/a.png?sig=1"})
    load(qtbot, host_loader(host), SRC)
    assert host.asked == [SRC, "https://cdn.example/v2/a.png?sig=1"]


def test_a_redirect_to_another_public_https_host_is_followed(qtbot, host_loader, dns):
    host = ImageHost({SRC: "https://images.example/a.png"})
    load(qtbot, host_loader(host), SRC)
    assert host.asked == [SRC, "https://images.example/a.png"]
    assert dns.asked == ["cdn.example", "images.example"]


def test_private_hosts_are_allowed_for_a_server_on_one(qtbot, host_loader):
    src = "http://127.0.0.1:8081/avatars/a.png"
    host = ImageHost({src: "http://10.0.0.7/a.png"})
    load(qtbot, host_loader(host, allow_private_hosts=True), src)
    assert host.asked == [src, "http://10.0.0.7/a.png"]


def test_the_rules_that_are_not_about_privacy_stay_for_a_private_server(qtbot, host_loader):
    host = ImageHost({"https://127.0.0.1/a.png": "http://127.0.0.1/a.png"})
    fail(qtbot, host_loader(host, allow_private_hosts=True), "https://127.0.0.1/a.png")
    assert host.asked == ["https://127.0.0.1/a.png"]


@pytest.mark.parametrize(
    "src",
    [
        "http://127.0.0.1:8081/avatars/a.png",
        "https://[::1]/a.png",
        "http://169.254.169.254/latest/meta-data/",
        "https://10.20.30.40/a.png",
        "https://[fd00::1]/a.png",
        "http://localhost:8081/a.png",
        "https://avatars.localhost/a.png",
        "https://rebind.example/a.png",
        "https://unknown.example/a.png",
    ],
)
def test_a_private_avatar_address_is_refused_without_a_request(qtbot, host_loader, src):
    host = ImageHost()
    loader = host_loader(host)
    fail(qtbot, loader, src)
    assert host.asked == []
    assert loader.loading == 0


def test_a_refusal_is_logged_without_the_query(qtbot, host_loader, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.avatar_loader")
    host = ImageHost({SRC + "?sig=s1gnature": "https://10.0.0.7/internal/a.png?token=secret"})
    fail(qtbot, host_loader(host), SRC + "?sig=s1gnature")
    records = [r for r in caplog.records if r.name == "cardviewer.services.avatar_loader"]
    assert records
    assert all(r.levelno == logging.DEBUG for r in records)
    text = " ".join(r.getMessage() for r in records)
    assert "https://10.0.0.7/internal/a.png" in text
    assert "secret" not in text
    assert "s1gnature" not in text


def test_a_redirected_avatar_is_kept_under_its_own_address(qtbot, host_loader):
    host = ImageHost({SRC: "https://images.example/a.png"})
    loader = host_loader(host, use_disk_cache=True)
    load(qtbot, loader, SRC)
    cache = loader.disk_cache
    assert cache is not None
    assert cache.get(SRC) is not None
    assert cache.get("https://images.example/a.png") is None


def test_a_host_name_is_resolved_once_for_many_avatars(qtbot, host_loader, dns):
    loader = host_loader(ImageHost())
    for name in ("a", "b", "c"):
        load(qtbot, loader, f"https://cdn.example/avatars/{name}.png")
    assert dns.asked == ["cdn.example"]


# The limits and the drawing, written out: what the defaults are, and where the edges go


class SlowHosts:
    """Image hosts behind `httpx.MockTransport` that take `delay` seconds an answer,
    counting the answers under way at once, in all and per host."""

    def __init__(
        self,
        delay: float = 0.1,
        body: bytes | None = None,
        *,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.delay = delay
        self.body = body if body is not None else png_bytes()
        self.headers = {"Content-Type": "image/png", **(headers or {})}
        self.open: dict[str, int] = {}
        self.peak = 0
        self.peak_per_host = 0
        self.asked: list[str] = []
        self.called_off = 0
        """Answers the loader stopped waiting for."""

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        import asyncio

        host = request.url.host
        self.asked.append(str(request.url))
        self.open[host] = self.open.get(host, 0) + 1
        self.peak = max(self.peak, sum(self.open.values()))
        self.peak_per_host = max(self.peak_per_host, self.open[host])
        try:
            await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            self.called_off += 1
            raise
        finally:
            self.open[host] -= 1
        return httpx.Response(200, content=self.body, headers=self.headers)


def many_hosts(dns, count: int) -> list[str]:
    """One avatar on each of `count` public hosts."""
    for number in range(count):
        dns.names[f"h{number}.example"] = [PUBLIC_V4]
    return [f"https://h{number}.example/a.png" for number in range(count)]


def test_six_downloads_at_once_by_default_and_four_from_one_host(qtbot, host_loader, dns):
    hosts = SlowHosts(delay=0.1)
    loader = host_loader(hosts)
    urls = many_hosts(dns, 9)
    for url in urls:
        loader.request(url)
    qtbot.waitUntil(lambda: all(loader.pixmap(u) is not None for u in urls), timeout=WAIT)
    assert hosts.peak == 6
    one_host = SlowHosts(delay=0.05)
    loader = host_loader(one_host)
    urls = [f"https://cdn.example/avatars/{n}.png" for n in range(13)]
    for url in urls:
        loader.request(url)
    qtbot.waitUntil(lambda: all(loader.pixmap(u) is not None for u in urls), timeout=WAIT)
    assert MAX_PER_HOST == 4
    assert one_host.peak_per_host == 4, "four at a time, as each one ends the next begins"


def test_five_million_bytes_are_the_most_an_avatar_may_have(qtbot, host_loader, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.avatar_loader")
    image = png_bytes()
    exact = image + b"\0" * (5_000_000 - len(image))  # what follows the image is ignored
    loader = host_loader(SlowHosts(delay=0, body=exact))
    load(qtbot, loader, SRC)
    over = SlowHosts(delay=0, body=exact + b"\0")
    fail(qtbot, host_loader(over), SRC)
    assert "5000001 bytes is more than allowed" in caplog.text, "said by its Content-Length"


def test_a_body_longer_than_allowed_is_refused_as_it_streams(qtbot, host_loader, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.avatar_loader")

    async def chunks():
        for chunk in (png_bytes(), b"\0" * 700, b"\0" * 700):  # passes 1,000 bytes at once
            yield chunk

    def streamed(request: httpx.Request) -> httpx.Response:  # no length said
        return httpx.Response(200, content=chunks(), headers={"Content-Type": "image/png"})

    fail(qtbot, host_loader(streamed, max_bytes=1_000), SRC)
    assert "more than 1000 bytes" in caplog.text


def png_header(width: int, height: int) -> bytes:
    """A PNG that states its size and holds no pixels (its data is not compressed data)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", b"no pixels")
        + chunk(b"IEND", b"")
    )


def test_forty_million_pixels_are_the_most_an_avatar_may_have(qtbot, host_loader, caplog):
    caplog.set_level(logging.DEBUG, logger="cardviewer.services.avatar_loader")
    fail(qtbot, host_loader(SlowHosts(delay=0, body=png_header(8000, 5001))), SRC)
    assert "8000 x 5001 pixels is more than allowed" in caplog.text
    caplog.clear()
    fail(qtbot, host_loader(SlowHosts(delay=0, body=png_header(53, 754_717))), SRC)
    assert "53 x 754717 pixels is more than allowed" in caplog.text, "40,000,001"
    caplog.clear()
    fail(qtbot, host_loader(SlowHosts(delay=0, body=png_header(8000, 5000))), SRC)
    assert "more than allowed" not in caplog.text, "allowed; only its pixels are missing"
    assert "cannot decode" in caplog.text


def test_at_most_512_requests_wait_and_the_oldest_gives_way(qapp):
    loader = AvatarLoader(use_disk_cache=False)  # no loop runs: requests only wait
    urls = [f"https://cdn.example/avatars/{n}.png" for n in range(514)]
    for url in urls:
        loader.request(url)
    assert loader.loading == 512
    small = AvatarLoader(use_disk_cache=False, cache_entries=2)
    for url in urls[:3]:
        small.request(url)
    small.request(urls[0])  # dropped, so asked for anew: it waits again, last
    small.request(urls[2])  # still waiting: moves up, nothing is dropped
    assert small.loading == 2


def test_the_oldest_waiting_request_gives_way_to_a_new_one(qtbot, host_loader):
    hosts = SlowHosts(delay=0.1)
    loader = host_loader(hosts, max_in_flight=1, cache_entries=2)
    urls = [f"https://cdn.example/avatars/{n}.png" for n in range(4)]
    for url in urls:  # the first downloads at once; of the three waiting, two stay
        loader.request(url)
    qtbot.waitUntil(lambda: loader.loading == 0, timeout=WAIT)
    assert hosts.asked == [urls[0], urls[3], urls[2]], "the newest first; the oldest dropped"


def test_a_host_whose_downloads_end_gets_its_share_again_not_more(qtbot, host_loader):
    class Staggered(SlowHosts):
        async def __call__(self, request: httpx.Request) -> httpx.Response:
            self.delay = 0.4 if request.url.path.endswith("/slow.png") else 0.03
            return await super().__call__(request)

    hosts = Staggered()
    loader = host_loader(hosts)
    first = ["https://cdn.example/avatars/slow.png"] + [
        f"https://cdn.example/avatars/{n}.png" for n in range(3)
    ]
    for url in first:
        loader.request(url)
    qtbot.waitUntil(lambda: loader.loading == 1, timeout=WAIT)  # the slow one is left
    for n in range(3, 9):
        loader.request(f"https://cdn.example/avatars/{n}.png")
    qtbot.waitUntil(lambda: loader.loading == 0, timeout=WAIT)
    assert hosts.peak_per_host == MAX_PER_HOST, "the slow one and three more, never five"


def test_a_cleared_download_that_fails_later_is_not_remembered(qtbot, host_loader):
    def refused(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(404)

    hosts = SlowHosts(delay=0.2)
    hosts.body = b"not an image"  # fails once it arrives
    loader = host_loader(hosts)
    failed: list[str] = []
    loader.avatarFailed.connect(failed.append)
    loader.request(SRC)
    qtbot.waitUntil(lambda: bool(hosts.asked), timeout=WAIT)
    loader.clear()
    qtbot.wait(300)
    assert failed == []
    assert not loader.failed(SRC)
    fail(qtbot, host_loader(refused), SRC)  # the same failure, not cleared, is remembered


def test_a_new_image_replaces_a_stale_cached_one(qtbot, host_loader, tmp_path):
    kept = {"Cache-Control": "max-age=0", "ETag": '"v1"'}  # kept, to be asked about each time
    old = SlowHosts(delay=0, body=png_bytes(colour="red"), headers=kept)
    red = load(qtbot, host_loader(old, use_disk_cache=True, disk_cache=tmp_path), SRC)
    new = SlowHosts(delay=0, body=png_bytes(colour="blue"))
    blue = load(qtbot, host_loader(new, use_disk_cache=True, disk_cache=tmp_path), SRC)
    assert new.asked == [SRC], "stale: asked again"
    assert (tmp_path / "avatars").is_dir()
    assert close_to(red.toImage().pixelColor(16, 16), (255, 0, 0))
    assert close_to(blue.toImage().pixelColor(16, 16), (0, 0, 255)), "the new one, not the kept"


def test_not_modified_without_a_kept_copy_is_a_failure(qtbot, host_loader):
    def not_modified(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(304)

    fail(qtbot, host_loader(not_modified), SRC)


@pytest.mark.parametrize(
    "head",
    [
        b"RIFE\x00\x00\x00\x00WEBPVP8 ",
        b"RIFG\x00\x00\x00\x00WEBPVP8 ",
        b"RIFF\x00\x00\x00\x00WEBQVP8 ",
        b"RIFF\x00\x00\x00\x00WEBOVP8 ",
        b"\x00IFF\x00\x00\x00\x00WEBPVP8 ",
    ],
)
def test_only_riff_webp_is_webp(head):
    assert sniff_image_format(head) is None


def mirrored(image: QImage) -> bool:
    """Every pixel's opacity is its mirror's, left to right and top to bottom (within the
    rounding of an antialiased edge)."""
    side = image.width()
    return all(
        abs(alpha(image, x, y) - alpha(image, side - 1 - x, y)) <= 2
        and abs(alpha(image, x, y) - alpha(image, x, side - 1 - y)) <= 2
        for x in range(side)
        for y in range(side)
    )


def test_a_thumbnail_and_the_placeholder_are_discs_about_their_middle(qapp):
    assert mirrored(decode_thumbnail(png_bytes(50, 50), 21, 1_000_000))
    assert mirrored(decode_thumbnail(png_bytes(50, 50), 20, 1_000_000))
    placeholder = AvatarLoader(use_disk_cache=False, size=21).placeholder().toImage()
    assert mirrored(placeholder)


def test_the_placeholder_is_its_picture_file_over_the_whole_square(qapp):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgRenderer

    from cardviewer.paths import resource_path
    from cardviewer.services.avatar_loader import PLACEHOLDER_RESOURCE

    side = 48
    shown = AvatarLoader(use_disk_cache=False, size=side).placeholder().toImage()
    drawn = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    disc, figure = shown.pixelColor(side // 2, 3), shown.pixelColor(side // 2, side * 2 // 5)
    picture = resource_path(PLACEHOLDER_RESOURCE).read_text(encoding="utf-8")
    picture = picture.replace("#D7DCE2", disc.name()).replace("#9AA5B1", figure.name())
    drawn.fill(disc)
    painter = QPainter(drawn)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(QByteArray(picture.encode())).render(painter, QRectF(0, 0, side, side))
    painter.end()
    inside = [(x, y) for x in range(side) for y in range(side) if alpha(shown, x, y) == 255]
    assert len(inside) > side * side // 2
    for x, y in inside:
        colour = drawn.pixelColor(x, y)
        assert close_to(shown.pixelColor(x, y), (colour.red(), colour.green(), colour.blue()), 2)


def test_the_placeholder_mixes_its_colours_from_the_palette(qapp):
    before = QGuiApplication.palette()
    palette = QPalette(before)
    base, text = (250, 240, 230), (10, 20, 30)
    palette.setColor(QPalette.ColorRole.Base, QColor(*base))
    palette.setColor(QPalette.ColorRole.Text, QColor(*text))
    try:
        QApplication.setPalette(palette)
        shown = AvatarLoader(use_disk_cache=False, size=64).placeholder().toImage()
    finally:
        QApplication.setPalette(before)

    def mixed(amount: float) -> tuple[int, int, int]:
        return tuple(round(b + (t - b) * amount) for b, t in zip(base, text, strict=True))  # type: ignore[return-value]

    assert close_to(shown.pixelColor(32, 6), mixed(0.12), 1), "the disc: 12 % of the text"
    assert close_to(shown.pixelColor(32, 25), mixed(0.55), 1), "the figure: 55 % of the text"


def test_a_placeholder_file_that_cannot_be_read_still_gives_a_disc(
    qapp, tmp_path, monkeypatch, caplog
):
    unreadable = tmp_path / "avatar-placeholder.svg"
    unreadable.write_bytes(b"\xff\xfe not UTF-8")
    monkeypatch.setattr("cardviewer.services.avatar_loader.resource_path", lambda _name: unreadable)
    image = AvatarLoader(use_disk_cache=False, size=24).placeholder().toImage()
    assert (alpha(image, 0, 0), alpha(image, 12, 12)) == (0, 255)
    assert "placeholder" in caplog.text


def test_a_thumbnail_of_one_pixel_is_one_pixel(qtbot, host_loader):
    pixmap = load(qtbot, host_loader(SlowHosts(delay=0), size=1), SRC)
    assert (pixmap.width(), pixmap.height()) == (1, 1)


def test_thumbnails_have_the_pixels_of_a_screen_at_twice_the_scale(tmp_path):
    import os
    import subprocess
    import sys

    script = (
        "from PySide6.QtGui import QGuiApplication\n"
        "from cardviewer.services.avatar_loader import AvatarLoader\n"
        "loader = AvatarLoader(use_disk_cache=False)\n"
        "before = loader.device_pixel_ratio()\n"
        "app = QGuiApplication([])\n"
        "print(before, loader.device_pixel_ratio())\n"
    )
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": "2"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["1.0", "2.0"], "no application yet: 1; then the screen's"


def test_an_avatar_may_take_twenty_seconds_and_ten_to_connect(qtbot, host_loader):
    asked: list[dict[str, float]] = []

    def host(request: httpx.Request) -> httpx.Response:
        asked.append(request.extensions["timeout"])
        return httpx.Response(200, content=png_bytes(), headers={"Content-Type": "image/png"})

    loader = host_loader(host)
    assert loader.size == 32
    load(qtbot, loader, SRC)
    load(qtbot, host_loader(host, timeout=4.0), "https://cdn.example/avatars/b.png")
    assert asked == [
        {"connect": 10.0, "read": 20.0, "write": 20.0, "pool": 20.0},
        {"connect": 4.0, "read": 4.0, "write": 4.0, "pool": 4.0},
    ]


def test_a_body_too_long_is_not_read_to_its_end(qtbot, host_loader):
    sent: list[int] = []

    async def endless():
        yield png_bytes()
        for number in range(1_000):
            sent.append(number)
            yield b"\0" * 1_000

    def host(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=endless(), headers={"Content-Type": "image/png"})

    fail(qtbot, host_loader(host, max_bytes=3_000), SRC)
    assert len(sent) < 10, "the download stops once it is too long"


def test_a_stale_copy_is_not_shown_when_the_host_answers_with_an_error(
    qtbot, host_loader, tmp_path
):
    kept = {"Cache-Control": "max-age=0", "ETag": '"v1"'}
    load(
        qtbot,
        host_loader(SlowHosts(delay=0, headers=kept), disk_cache=tmp_path, use_disk_cache=True),
        SRC,
    )

    def gone(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(404)

    fail(qtbot, host_loader(gone, disk_cache=tmp_path, use_disk_cache=True), SRC)


def test_an_unexpected_failure_is_logged_with_its_traceback_and_remembered(
    qtbot, host_loader, monkeypatch, caplog
):
    def broken(*_arguments: object) -> None:
        raise RuntimeError("a decoder fault")

    monkeypatch.setattr("cardviewer.services.avatar_loader.decode_thumbnail", broken)
    loader = host_loader(SlowHosts(delay=0))
    fail(qtbot, loader, SRC)
    (record,) = [r for r in caplog.records if "not loaded" in r.getMessage()]
    assert record.levelno == logging.WARNING
    assert record.exc_info is not None
    assert "a decoder fault" in caplog.text


def test_a_placeholder_of_one_pixel_is_one_pixel(qapp):
    placeholder = AvatarLoader(use_disk_cache=False, size=1).placeholder()
    assert (placeholder.width(), placeholder.height()) == (1, 1)


def test_without_a_screen_thumbnails_have_one_pixel_a_point(qapp, monkeypatch):
    monkeypatch.setattr(QGuiApplication, "primaryScreen", staticmethod(lambda: None))
    assert AvatarLoader(use_disk_cache=False).device_pixel_ratio() == 1.0


@pytest.mark.parametrize("tall", [True, False])
def test_decoding_keeps_the_pictures_proportions(qapp, tall):
    image = QImage(100, 300, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    for y in range(147, 153):  # a thin line across the middle
        for x in range(100):
            image.setPixelColor(x, y, QColor("black"))
    if not tall:  # lying on its side: the line runs down the middle
        from PySide6.QtGui import QTransform

        image = image.transformed(QTransform().rotate(90))
    thumbnail = decode_thumbnail(encode_png(image), 20, 1_000_000)
    along = [thumbnail.pixelColor(*((10, n) if tall else (n, 10))) for n in range(20)]
    dark = [n for n, colour in enumerate(along) if colour.lightness() < 160]
    assert 1 <= len(dark) <= 2, "six of 300 rows make one or two of 60, not squeezed or stretched"
    assert all(8 <= n <= 11 for n in dark), "in the middle"


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """`jpeg` with an EXIF orientation tag, as a camera or phone writes it (6: turn right)."""
    import struct

    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + struct.pack(">I", 0)
    exif = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]


def test_a_photo_is_turned_upright_as_its_camera_said(qapp):
    image = QImage(40, 40, QImage.Format.Format_RGB32)
    for x in range(40):
        for y in range(40):
            image.setPixelColor(x, y, QColor("red") if x < 20 else QColor("blue"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert QImageWriter(buffer, QByteArray(b"jpeg")).write(image)
    buffer.close()
    photo = with_orientation(bytes(data.data()), 6)
    thumbnail = decode_thumbnail(photo, 20, 1_000_000)
    for x in (6, 13):  # turned a quarter: the left half is on top
        assert close_to(thumbnail.pixelColor(x, 5), (255, 0, 0), 60)
        assert close_to(thumbnail.pixelColor(x, 14), (0, 0, 255), 60)


def test_an_address_python_cannot_split_is_still_loaded(qtbot, host_loader):
    """httpx reads "a]b" as a host where Python's `urlsplit` refuses it: the download
    goes on, counted under no host."""
    host = ImageHost()
    load(qtbot, host_loader(host, allow_private_hosts=True), "https://a]b/x.png")
    assert host.asked == ["https://a%5Db/x.png"]


def test_clear_stops_the_downloads_under_way(qtbot, host_loader):
    hosts = SlowHosts(delay=5.0)
    loader = host_loader(hosts)
    loader.request(SRC)
    qtbot.waitUntil(lambda: bool(hosts.asked), timeout=WAIT)
    loader.clear()
    qtbot.waitUntil(lambda: hosts.called_off == 1, timeout=2_000)


def test_a_host_at_its_share_does_not_hold_up_another(qtbot, host_loader, dns):
    class Hosts(SlowHosts):
        async def __call__(self, request: httpx.Request) -> httpx.Response:
            self.delay = 0.4 if request.url.host == "cdn.example" else 0.03
            return await super().__call__(request)

    dns.names["other.example"] = [PUBLIC_V4]
    dns.names["third.example"] = [PUBLIC_V4]
    hosts = Hosts()
    loader = host_loader(hosts)
    busy = [f"https://cdn.example/avatars/{n}.png" for n in range(5)]
    for url in [*busy[:4], "https://other.example/1.png", "https://other.example/2.png"]:
        loader.request(url)  # every slot taken: four on cdn.example, two on other.example
    loader.request("https://third.example/a.png")  # waits for a slot
    loader.request(busy[4])  # waits too, newer, for a host already at its share
    qtbot.waitUntil(lambda: loader.loading == 0, timeout=WAIT)
    assert hosts.asked.index("https://third.example/a.png") < hosts.asked.index(busy[4]), (
        "the first free slot goes to the host with room"
    )


def test_an_error_answer_is_no_avatar_even_with_a_picture_in_it(qtbot, host_loader):
    def not_found(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, content=png_bytes(), headers={"Content-Type": "image/png"})

    fail(qtbot, host_loader(not_found), SRC)
