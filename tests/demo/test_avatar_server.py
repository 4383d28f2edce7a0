"""The image host: its own origin, images, caching headers, oddities, no tokens."""

from __future__ import annotations

import io
import time
from email.utils import format_datetime
from urllib.parse import urlsplit

import httpx
import pytest
from PIL import Image

from cardviewer.demo.data import FIRST_CREATED


def decode(body: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(body))
    image.load()
    return image


@pytest.fixture
def cards(client, demo, auth):
    return client.get(f"/v1/spaces/{demo.space_id}/cards", headers=auth).json()["data"]


@pytest.fixture
def avatar(cards):
    return next(c["avatar"] for c in cards if c["avatar"]["uuid"])


def test_the_image_host_is_another_origin(demo):
    assert demo.avatar_port != demo.port
    assert demo.avatar_base_url != demo.base_url
    assert urlsplit(demo.avatar_base_url).hostname == urlsplit(demo.base_url).hostname


def test_a_card_avatar_is_served_without_a_token(cdn, demo, avatar):
    response = cdn.get(urlsplit(avatar["src"]).path)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/jpeg"
    image = decode(response.content)
    assert (image.format, image.size) == ("JPEG", (256, 256))
    recorded = [r for r in demo.requests if r.server == "avatar"]
    assert len(recorded) == 1
    assert "authorization" not in recorded[0].headers


def test_the_large_avatar(cdn, avatar):
    response = cdn.get(urlsplit(avatar["src_large"]).path)
    assert decode(response.content).size == (512, 512)


def test_the_avatar_url_from_the_listing_works_as_given(demo, avatar):
    response = httpx.get(avatar["src"], timeout=5)
    assert response.status_code == 200
    assert urlsplit(avatar["src"]).port == demo.avatar_port


def test_the_default_avatar(cdn, cards):
    default = next((c["avatar"] for c in cards if c["avatar"]["uuid"] is None), None)
    path = urlsplit(default["src"]).path if default else "/avatars/default.png"
    response = cdn.get(path)
    assert response.headers["content-type"] == "image/png"
    assert decode(response.content).size == (256, 256)


def test_caching_headers(cdn, avatar):
    response = cdn.get(urlsplit(avatar["src"]).path)
    assert response.headers["cache-control"] == "public, max-age=86400"
    assert response.headers["etag"].startswith('"')
    assert response.headers["last-modified"].endswith(" GMT")


def test_if_none_match_is_answered_with_304(cdn, avatar):
    path = urlsplit(avatar["src"]).path
    tag = cdn.get(path).headers["etag"]
    for header in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        response = cdn.get(path, headers={"If-None-Match": header})
        assert response.status_code == 304
        assert response.content == b""
        assert response.headers["etag"] == tag
    assert cdn.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_if_modified_since(cdn):
    path = "/avatars/default.png"
    modified = format_datetime(FIRST_CREATED, usegmt=True)
    assert cdn.get(path).headers["last-modified"] == modified
    assert cdn.get(path, headers={"If-Modified-Since": modified}).status_code == 304
    assert (
        cdn.get(path, headers={"If-Modified-Since": "Sun, 01 Jan 2017 00:00:00 GMT"}).status_code
        == 200
    )
    assert cdn.get(path, headers={"If-Modified-Since": "yesterday"}).status_code == 200


def test_a_keep_alive_connection_serves_many_images(cdn, cards):
    paths = [urlsplit(c["avatar"]["src"]).path for c in cards]
    assert all(cdn.get(p).status_code == 200 for p in paths)


def test_head(cdn, avatar):
    path = urlsplit(avatar["src"]).path
    response = cdn.head(path)
    assert response.status_code == 200
    assert response.content == b""
    assert int(response.headers["content-length"]) == len(cdn.get(path).content)


def test_the_huge_image(cdn):
    started = time.perf_counter()
    response = cdn.get("/avatars/huge.jpg", timeout=30)
    image = Image.open(io.BytesIO(response.content))
    assert (image.format, image.size) == ("JPEG", (4000, 4000))
    assert len(response.content) > 1_000_000
    assert time.perf_counter() - started < 10


def test_the_broken_image(cdn):
    response = cdn.get("/avatars/broken.jpg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/jpeg"
    with pytest.raises(OSError):  # noqa: PT011 (Pillow raises plain OSError)
        decode(response.content)


@pytest.mark.parametrize(
    "path",
    [
        "/avatars/unknownAvatar00.jpg",
        "/avatars/large/unknownAvatar00.jpg",
        "/avatars/",
        "/",
        "/v1/auth/login",
        "/avatars/default.jpg",
    ],
)
def test_unknown_images_are_404(cdn, path):
    response = cdn.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html"


def test_the_image_host_is_not_the_api(cdn, demo):
    response = cdn.post("/v1/auth/login", json={"email": demo.email, "password": demo.password})
    assert response.status_code == 404


def test_images_are_read_only(cdn):
    response = cdn.post("/avatars/default.png")
    assert response.status_code == 405


def test_avatar_latency(cdn, demo):
    demo.config.avatar_latency = 0.3
    started = time.perf_counter()
    assert cdn.get("/avatars/default.png").status_code == 200
    assert time.perf_counter() - started >= 0.3
