"""Avatar images drawn with Pillow: initials on a colour, a default silhouette, and oddities.

Encoding is the slow part, so every image is encoded once and its bytes are cached.
"""

from __future__ import annotations

import hashlib
import io
import threading
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

AVATAR_SIZE = 256
LARGE_AVATAR_SIZE = 512
HUGE_SIZE = 4000

# Calm, saturated colours on which white initials read well.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (0x1E, 0x88, 0xE5),
    (0x43, 0xA0, 0x47),
    (0xE5, 0x39, 0x35),
    (0x8E, 0x24, 0xAA),
    (0xFB, 0x8C, 0x00),
    (0x00, 0x89, 0x7B),
    (0x39, 0x49, 0xAB),
    (0xD8, 0x1B, 0x60),
    (0x6D, 0x4C, 0x41),
    (0x54, 0x6E, 0x7A),
    (0x00, 0xAC, 0xC1),
    (0x7C, 0xB3, 0x42),
)

# Starts like a JPEG, so it passes a sniff of the first bytes, then is not one.
BROKEN_JPEG = b"\xff\xd8\xff\xe0" + b"upload interrupted: this is not image data\n" * 16


def colour_for(key: str) -> tuple[int, int, int]:
    """The same avatar id always gets the same colour, on every machine."""
    digest = hashlib.sha256(key.encode()).digest()
    return PALETTE[int.from_bytes(digest[:4], "big") % len(PALETTE)]


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _encode(image: Image.Image, image_format: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, image_format, **options)
    return out.getvalue()


@lru_cache(maxsize=4096)
def initials_jpeg(initials: str, key: str, size: int = AVATAR_SIZE) -> bytes:
    """A square JPEG with white initials centred on the colour chosen for `key`."""
    image = Image.new("RGB", (size, size), colour_for(key))
    draw = ImageDraw.Draw(image)
    draw.text(
        (size / 2, size / 2),
        initials,
        fill=(255, 255, 255),
        font=_font(int(size * 0.42)),
        anchor="mm",
    )
    return _encode(image, "JPEG", quality=88)


@lru_cache(maxsize=4)
def default_png(size: int = AVATAR_SIZE) -> bytes:
    """A neutral grey head-and-shoulders silhouette, for cards without a picture."""
    image = Image.new("RGB", (size, size), (0xE0, 0xE0, 0xE0))
    draw = ImageDraw.Draw(image)
    grey = (0x9E, 0x9E, 0x9E)
    head = size * 0.19
    cx, cy = size / 2, size * 0.39
    draw.ellipse((cx - head, cy - head, cx + head, cy + head), fill=grey)
    draw.ellipse((size * 0.18, size * 0.66, size * 0.82, size * 1.3), fill=grey)
    return _encode(image, "PNG", optimize=True)


_huge_lock = threading.Lock()
_huge: bytes | None = None


def huge_jpeg() -> bytes:
    """A 4000 x 4000 photo-sized JPEG (a few MB), made on first use, to test memory and scaling."""
    global _huge
    with _huge_lock:
        if _huge is None:
            # Gradients with grain, which compress about as badly as a photo does.
            size = (HUGE_SIZE, HUGE_SIZE)
            red = Image.linear_gradient("L").resize(size)
            green = Image.radial_gradient("L").resize(size)
            blue = red.transpose(Image.Transpose.ROTATE_90)
            grain = Image.effect_noise(size, 10)
            channels = [ImageChops.add(c, grain, 1, -128) for c in (red, green, blue)]
            _huge = _encode(Image.merge("RGB", channels), "JPEG", quality=80)
        return _huge


def etag(body: bytes) -> str:
    return '"' + hashlib.sha1(body, usedforsecurity=False).hexdigest()[:20] + '"'
