"""Avatar images: what they look like, and that each is encoded only once."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cardviewer.demo import avatars


def decode(body: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(body))
    image.load()
    return image


def test_initials_avatar_is_a_square_jpeg_in_the_chosen_colour():
    image = decode(avatars.initials_jpeg("AS", "abcdefghijklmno"))
    assert (image.format, image.size, image.mode) == ("JPEG", (256, 256), "RGB")
    corner = image.getpixel((5, 5))
    assert isinstance(corner, tuple)
    expected = avatars.colour_for("abcdefghijklmno")
    assert all(abs(a - b) < 12 for a, b in zip(corner, expected, strict=True))
    centre = image.crop((64, 64, 192, 192)).convert("L")
    assert max(centre.tobytes()) > 240  # white letters are drawn


def test_large_avatars_have_their_own_size():
    assert decode(avatars.initials_jpeg("AS", "abc", avatars.LARGE_AVATAR_SIZE)).size == (512, 512)


def test_encoded_images_are_cached():
    assert avatars.initials_jpeg("ZZ", "cached") is avatars.initials_jpeg("ZZ", "cached")
    assert avatars.default_png() is avatars.default_png()


def test_colours_are_stable_and_varied():
    assert avatars.colour_for("x") == avatars.colour_for("x")
    assert avatars.colour_for("x") in avatars.PALETTE
    assert len({avatars.colour_for(str(n)) for n in range(200)}) == len(avatars.PALETTE)


def test_default_is_a_grey_png():
    image = decode(avatars.default_png())
    assert (image.format, image.size) == ("PNG", (256, 256))
    rgb = image.convert("RGB")
    for point in ((0, 0), (128, 100), (128, 250)):
        pixel = rgb.getpixel(point)
        assert isinstance(pixel, tuple)
        assert len(set(pixel)) == 1


def test_broken_jpeg_starts_like_one_but_is_not():
    assert avatars.BROKEN_JPEG.startswith(b"\xff\xd8\xff")
    with pytest.raises(OSError):  # noqa: PT011 (Pillow raises plain OSError)
        decode(avatars.BROKEN_JPEG)


def test_etag_is_quoted_and_follows_the_content():
    tag = avatars.etag(b"one")
    assert tag.startswith('"')
    assert tag.endswith('"')
    assert tag == avatars.etag(b"one")
    assert tag != avatars.etag(b"two")
