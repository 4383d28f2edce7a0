"""A card's avatar as a vCard's photo: a small upright square JPEG, or a reason why not."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cardviewer.demo.avatars import huge_jpeg, initials_jpeg
from cardviewer.services.avatar_fetch import AvatarRejected
from cardviewer.services.vcard_photo import PHOTO_SIDE, photo_jpeg

RED, BLUE, GREEN = (255, 0, 0), (0, 0, 255), (0, 160, 0)
EXIF_ORIENTATION = 0x0112
ROTATE_CLOCKWISE = 6
"""EXIF: the picture is stored lying on its left side; shown turned a quarter clockwise."""


def picture(width: int, height: int, image_format: str = "PNG", **options: object) -> bytes:
    """Red above blue, split at half the height (or transparent, for "transparent")."""
    image = Image.new("RGB", (width, height), BLUE)
    image.paste(RED, (0, 0, width, height // 2))
    out = io.BytesIO()
    image.save(out, image_format, **options)
    return out.getvalue()


def opened(jpeg: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(jpeg))
    assert image.format == "JPEG"
    return image.convert("RGB")


def near(colour: object, expected: tuple[int, int, int], tolerance: int = 40) -> bool:
    """`colour`, a pixel as Pillow gives it, is within `tolerance` of `expected`."""
    assert isinstance(colour, tuple)
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def test_a_photo_is_a_small_square_jpeg():
    jpeg = photo_jpeg(initials_jpeg("AL", "ada", 512))
    image = opened(jpeg)
    assert image.size == (PHOTO_SIDE, PHOTO_SIDE) == (96, 96)
    assert len(jpeg) < 8_000, "a few kilobytes, once per card in the file"


@pytest.mark.parametrize(("width", "height"), [(400, 100), (100, 400), (50, 50), (3, 2)])
def test_any_picture_gives_the_middle_square_at_the_photo_s_size(width, height):
    image = opened(photo_jpeg(picture(width, height)))
    assert image.size == (96, 96)


def test_a_wide_picture_keeps_its_middle():
    wide = Image.new("RGB", (300, 100), RED)
    wide.paste(GREEN, (100, 0, 200, 100))
    out = io.BytesIO()
    wide.save(out, "PNG")
    image = opened(photo_jpeg(out.getvalue()))
    assert all(near(image.getpixel((x, 48)), GREEN) for x in (4, 48, 91))


def test_a_photo_stored_on_its_side_comes_out_upright():
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = ROTATE_CLOCKWISE
    stored = picture(200, 200, "JPEG", exif=exif.tobytes(), quality=95)
    image = opened(photo_jpeg(stored))
    # Stored red above blue; turned a quarter clockwise, red is on the right.
    assert near(image.getpixel((88, 48)), RED)
    assert near(image.getpixel((8, 48)), BLUE)
    plain = opened(photo_jpeg(picture(200, 200, "JPEG", quality=95)))
    assert near(plain.getpixel((48, 8)), RED), "without the tag, as stored"


def test_transparency_becomes_white_not_black():
    clear = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    out = io.BytesIO()
    clear.save(out, "PNG")
    assert near(opened(photo_jpeg(out.getvalue())).getpixel((32, 32)), (255, 255, 255), 8)


@pytest.mark.parametrize(
    "data",
    [b"", b"<html>not found</html>", b"\xff\xd8\xff" + b"\0" * 100, b"<svg></svg>"],
    ids=["empty", "web page", "broken JPEG", "SVG"],
)
def test_bytes_that_are_no_picture_give_no_photo(data):
    with pytest.raises(AvatarRejected, match="image"):
        photo_jpeg(data)


def test_more_bytes_than_allowed_give_no_photo():
    data = picture(64, 64)
    assert photo_jpeg(data, max_bytes=len(data))
    with pytest.raises(AvatarRejected, match="more than allowed"):
        photo_jpeg(data, max_bytes=len(data) - 1)


def test_more_pixels_than_allowed_give_no_photo_and_are_not_decoded():
    with pytest.raises(AvatarRejected, match="4000 x 4000 pixels"):
        photo_jpeg(huge_jpeg(), max_pixels=4000 * 4000 - 1)
    assert opened(photo_jpeg(huge_jpeg())).size == (96, 96), "the default allows 40 million"


def banded(width: int, height: int) -> bytes:
    """Red at both ends of the longer side, green in its middle third."""
    image = Image.new("RGB", (width, height), RED)
    if width >= height:
        image.paste(GREEN, (width // 3, 0, 2 * width // 3, height))
    else:
        image.paste(GREEN, (0, height // 3, width, 2 * height // 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize(("width", "height"), [(300, 100), (100, 300)])
def test_the_middle_square_fills_the_photo_to_its_edges_and_corners(width, height):
    image = opened(photo_jpeg(banded(width, height)))
    edges = [(0, 0), (95, 0), (0, 95), (95, 95), (0, 48), (95, 48), (48, 0), (48, 95)]
    assert all(near(image.getpixel(point), GREEN) for point in edges), [
        image.getpixel(point) for point in edges
    ]
