"""Where vCards' photos come from: the avatar cache first, else trusted image hosts only."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from cardviewer.api.models import Card, parse_card
from cardviewer.services.avatar_disk_cache import AvatarDiskCache
from cardviewer.services.avatar_fetch import AvatarRejected
from cardviewer.services.vcard_photos import PhotoSource, blocking_lookup
from tests.services.test_vcard_photo import picture

HOST = "https://93.184.216.34"
"""A public address written literally, so that no host name has to be resolved."""
LOGGER = "cardviewer.services.vcard_photos"


def card(uuid: str, src: str | None, *, own: bool = True) -> Card:
    avatar = {"uuid": f"av-{uuid}" if own else None, "src": src}
    return parse_card({"uuid": uuid, "display_name": uuid, "avatar": avatar})


def made(data: bytes) -> bytes:
    """The thumbnail the tests hand in: marks what it was made from."""
    if not data.startswith(b"\x89PNG"):
        raise AvatarRejected("not an image")
    return b"photo of " + data[-8:]


class Host:
    """An image host behind `httpx.MockTransport`: a picture at every address, or `answer`."""

    def __init__(self, answer: Callable[[httpx.Request], httpx.Response] | None = None) -> None:
        self.asked: list[str] = []
        self.image = picture(8, 8)
        self._answer = answer

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(str(request.url))
        if self._answer is not None:
            return self._answer(request)
        return httpx.Response(200, content=self.image, headers={"Cache-Control": "max-age=60"})


def photos(cards: list[Card], host: Host, **options: Any) -> dict[str, bytes]:
    async def run() -> dict[str, bytes]:
        source = PhotoSource(made, transport=httpx.MockTransport(host), **options)
        try:
            return await source.photos(cards)
        finally:
            await source.aclose()

    return asyncio.run(run())


def test_a_picture_in_the_window_s_cache_is_used_without_asking(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    src = f"{HOST}/a.png"
    cache.put(src, {"cache-control": "max-age=600"}, picture(8, 8))
    host = Host()
    assert photos([card("c1", src)], host, disk_cache=cache) == {src: made(picture(8, 8))}
    assert host.asked == []


def test_a_stale_picture_in_the_cache_costs_a_question_not_a_download(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    src = f"{HOST}/a.png"
    cache.put(src, {"cache-control": "max-age=0", "etag": '"v1"'}, picture(8, 8))
    host = Host(lambda request: httpx.Response(304, headers={"ETag": '"v1"'}))
    assert photos([card("c1", src)], host, disk_cache=cache) == {src: made(picture(8, 8))}
    assert host.asked == [src]


def test_a_picture_not_in_the_cache_is_downloaded_and_not_kept(tmp_path):
    cache = AvatarDiskCache(tmp_path)
    src = f"{HOST}/b.png"
    host = Host()
    assert photos([card("c1", src)], host, disk_cache=cache) == {src: made(host.image)}
    assert host.asked == [src]
    assert cache.get(src) is None, "an export does not push out what the window keeps"


@pytest.mark.parametrize(
    "src",
    [
        "http://127.0.0.1:8080/a.png",
        "http://localhost/a.png",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.7/a.png",
        "http://[::1]/a.png",
        "file:///etc/passwd",
        "ftp://93.184.216.34/a.png",
    ],
)
def test_an_untrusted_avatar_address_gives_no_photo_and_is_never_asked(src, caplog):
    host = Host()
    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        assert photos([card("c1", src), card("c2", f"{HOST}/ok.png")], host) == {
            f"{HOST}/ok.png": made(host.image)
        }
    assert host.asked == [f"{HOST}/ok.png"]
    said = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    assert len(said) == 1, said
    assert said[0].startswith("no photo for card c1 from ")


def test_a_redirect_to_the_local_network_gives_no_photo():
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "http://192.168.1.1/admin.png"})

    host = Host(answer)
    assert photos([card("c1", f"{HOST}/a.png")], host) == {}
    assert host.asked == [f"{HOST}/a.png"], "the redirect is not followed"


def test_private_hosts_are_trusted_for_a_server_on_one():
    src = "http://127.0.0.1:8080/a.png"
    assert photos([card("c1", src)], Host(), allow_private_hosts=True) == {src: made(picture(8, 8))}


def test_the_platform_s_default_picture_is_no_one_s_photo():
    host = Host()
    assert photos([card("c1", f"{HOST}/default.png", own=False), card("c2", None)], host) == {}
    assert host.asked == []


def test_an_address_several_cards_share_is_asked_once():
    host = Host()
    src = f"{HOST}/shared.png"
    assert list(photos([card("c1", src), card("c2", src)], host)) == [src]
    assert host.asked == [src]


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (lambda r: httpx.Response(200, content=b"<html>gone</html>"), "not an image"),
        (lambda r: httpx.Response(404), "HTTP 404"),
        (lambda r: httpx.Response(200, content=b"\x89PNG" + b"\0" * 6_000_000), "more than"),
    ],
    ids=["no picture", "not found", "too large"],
)
def test_a_picture_that_cannot_be_had_costs_one_line_of_the_log(answer, why, caplog):
    host = Host(answer)
    with caplog.at_level(logging.DEBUG, logger=LOGGER):
        assert photos([card("c1", f"{HOST}/a.png")], host) == {}
    said = [r for r in caplog.records if r.name == LOGGER]
    assert [r.levelno for r in said] == [logging.DEBUG]
    assert f"no photo for card c1 from {HOST}/a.png: " in said[0].getMessage()
    assert why in said[0].getMessage()


def test_an_unexpected_failure_is_a_warning_with_its_traceback_not_a_failed_export(caplog):
    def broken(data: bytes) -> bytes:
        raise ValueError("a bug")

    async def run() -> dict[str, bytes]:
        source = PhotoSource(broken, transport=httpx.MockTransport(Host()))
        try:
            return await source.photos([card("c1", f"{HOST}/a.png")])
        finally:
            await source.aclose()

    assert asyncio.run(run()) == {}
    [record] = [r for r in caplog.records if r.name == LOGGER]
    assert record.levelno == logging.WARNING
    assert record.exc_info
    assert record.exc_info[0] is ValueError


def test_downloads_are_a_few_at_a_time():
    running = peak = 0

    async def slow(request: httpx.Request) -> httpx.Response:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1
        return httpx.Response(200, content=picture(8, 8))

    async def run() -> dict[str, bytes]:
        source = PhotoSource(made, transport=httpx.MockTransport(slow), max_in_flight=3)
        try:
            return await source.photos([card(f"c{n}", f"{HOST}/{n}.png") for n in range(12)])
        finally:
            await source.aclose()

    assert len(asyncio.run(run())) == 12
    assert peak == 3


def test_a_closed_source_gives_no_photos_and_asks_nothing(caplog):
    host = Host()

    async def run() -> dict[str, bytes]:
        source = PhotoSource(made, transport=httpx.MockTransport(host))
        await source.aclose()
        return await source.photos([card("c1", f"{HOST}/a.png")])

    assert asyncio.run(run()) == {}
    assert host.asked == []
    assert [r for r in caplog.records if r.name == LOGGER] == [], "not even tried"


def looked_up_from_a_thread(
    make_source: Callable[[], PhotoSource],
    cards: list[Card],
    *,
    stop: threading.Event | None = None,
    stop_after: float | None = None,
) -> tuple[dict[str, bytes], float]:
    """What a writer on a worker thread gets through `blocking_lookup`, and how long it
    waited; the loop runs meanwhile, and sets `stop` after `stop_after` seconds."""

    async def run() -> tuple[dict[str, bytes], float]:
        source = make_source()
        loop = asyncio.get_running_loop()
        lookup = blocking_lookup(source, loop, stop=stop)
        if stop is not None and stop_after is not None:
            loop.call_later(stop_after, stop.set)
        started = time.monotonic()
        try:
            found = dict(await asyncio.to_thread(lookup, cards))
            return found, time.monotonic() - started
        finally:
            await source.aclose()

    return asyncio.run(run())


def test_a_writer_on_a_worker_thread_gets_the_photos_from_the_loop():
    host = Host()
    src = f"{HOST}/a.png"
    found, _ = looked_up_from_a_thread(
        lambda: PhotoSource(made, transport=httpx.MockTransport(host)), [card("c1", src)]
    )
    assert found == {src: made(host.image)}


def test_a_writer_is_not_left_waiting_for_a_loop_that_has_gone():
    loop = asyncio.new_event_loop()
    source = PhotoSource(made, transport=httpx.MockTransport(Host()), timeout=0.05)
    lookup = blocking_lookup(source, loop)  # never run: nothing would ever answer
    started = time.monotonic()
    found: list[object] = []
    worker = threading.Thread(target=lambda: found.append(lookup([card("c1", f"{HOST}/a")])))
    worker.start()
    worker.join(5)
    assert found == [{}]
    assert time.monotonic() - started < 2
    loop.run_until_complete(source.aclose())  # the request given up is dropped, unstarted
    loop.close()
    assert lookup([card("c1", f"{HOST}/a")]) == {}, "a closed loop: at once"


def test_a_writer_told_to_stop_is_not_left_waiting_for_a_slow_host():
    """Cancel while a batch's pictures are on their way: the writer goes on at once."""

    async def never(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200)

    found, waited = looked_up_from_a_thread(
        lambda: PhotoSource(made, transport=httpx.MockTransport(never)),
        [card("c1", f"{HOST}/a.png")],
        stop=threading.Event(),
        stop_after=0.2,
    )
    assert found == {}
    assert waited < 2, "not the download's 20 s"


def test_the_longest_wait_is_a_timeout_per_round_of_downloads():
    source = PhotoSource(made, timeout=2.0, max_in_flight=3)
    assert [source.longest_wait(n) for n in (0, 2, 3, 5, 6)] == [2.0, 2.0, 4.0, 4.0, 6.0]
    by_default = PhotoSource(made, timeout=1.0)
    assert [by_default.longest_wait(n) for n in (3, 4, 8)] == [1.0, 2.0, 3.0], "four at once"
    asyncio.run(source.aclose())
    asyncio.run(by_default.aclose())


def test_photos_that_take_a_few_looks_at_the_stop_are_still_taken():
    """While nothing stops it, the writer waits out the batch's time, not one look's."""

    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.35)
        return httpx.Response(200, content=picture(8, 8))

    src = f"{HOST}/a.png"
    found, _ = looked_up_from_a_thread(
        lambda: PhotoSource(made, transport=httpx.MockTransport(slow), timeout=5.0),
        [card("c1", src)],
        stop=threading.Event(),
    )
    assert found == {src: made(picture(8, 8))}


@pytest.mark.parametrize("stop", [None, threading.Event()])
def test_a_batch_whose_photos_never_come_is_given_up_at_its_longest_wait(stop):
    async def never(cards: object) -> dict[str, bytes]:
        await asyncio.Event().wait()
        return {}

    def source() -> PhotoSource:
        made_here = PhotoSource(made, transport=httpx.MockTransport(Host()), timeout=0.3)
        made_here.photos = never  # type: ignore[method-assign]
        return made_here

    found, waited = looked_up_from_a_thread(source, [card("c1", f"{HOST}/a.png")], stop=stop)
    assert found == {}
    assert 0.25 <= waited < 3
