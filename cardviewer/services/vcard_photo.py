"""A card's avatar as a contact's photo: a small square JPEG for its vCard to carry.

A contacts program shows a photo a few dozen pixels wide, and a vCard holds every byte
of it, base64-encoded, once per card: a 96-pixel square cut from the middle at JPEG
quality 80 is a few kilobytes, so a whole space's vCards stay a file one can mail. The
picture is read as the table's thumbnails are (`avatar_loader.read_scaled`): within
the same byte and pixel limits, checked before a pixel is decoded, scaled while it is
decoded and turned upright as its EXIF orientation says. Pure, and needs no
application object: call it from a worker thread.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImage, QImageWriter, QPainter

from cardviewer.services.avatar_fetch import DEFAULT_MAX_BYTES, AvatarRejected
from cardviewer.services.avatar_loader import DEFAULT_MAX_PIXELS, read_scaled

PHOTO_SIDE = 96
"""Width and height of a photo in pixels: sharp in a contacts list and on a call screen."""
PHOTO_QUALITY = 80


def photo_jpeg(
    data: bytes,
    *,
    side: int = PHOTO_SIDE,
    quality: int = PHOTO_QUALITY,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_pixels: int = DEFAULT_MAX_PIXELS,
) -> bytes:
    """The picture `data` as a `side` x `side` JPEG, its middle square; opaque (white
    where it was transparent, which JPEG cannot say).

    Raises `AvatarRejected`, saying why, for bytes that are no picture, or more bytes
    or pixels than allowed.
    """
    if len(data) > max_bytes:
        raise AvatarRejected(f"{len(data)} bytes is more than allowed")
    image, problem = read_scaled(data, side, max_pixels)
    if image is None:
        raise AvatarRejected(problem)
    middle = image.copy((image.width() - side) // 2, (image.height() - side) // 2, side, side)
    return _jpeg(_over_white(middle, side), quality)


def _over_white(image: QImage, side: int) -> QImage:
    """`image` drawn over white, so a transparent edge is white in the JPEG, not black."""
    out = QImage(side, side, QImage.Format.Format_RGB32)
    out.fill(0xFFFFFFFF)
    painter = QPainter(out)
    try:
        painter.drawImage(0, 0, image)
    finally:
        painter.end()
    return out


def _jpeg(image: QImage, quality: int) -> bytes:
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    try:
        writer = QImageWriter(buffer, QByteArray(b"jpeg"))
        writer.setQuality(quality)
        if not writer.write(image):
            raise AvatarRejected(f"cannot write a JPEG: {writer.errorString()}")
        return bytes(buffer.data().data())
    finally:
        buffer.close()
