"""A card's contact as a QR code, as card platforms print on every card.

The code carries the card's vCard 3.0 (`vcard_export.card_vcard`), which a phone's
camera offers to save as a contact. Medium error correction keeps a code read from a
screen or a printed page with a smudge; a card's vCard of a few hundred bytes makes a
code of about 60 modules a side. The window draws the modules itself, sharp at any
scale; files are written here, as PNG or SVG.
"""

from __future__ import annotations

import io
from pathlib import Path

import segno

from cardviewer.api.models import Card
from cardviewer.services.atomic_file import write_atomically
from cardviewer.services.vcard_export import card_vcard

PNG_SUFFIX = ".png"
SVG_SUFFIX = ".svg"
BORDER = 4
"""Light modules around the code, as the QR standard asks, so that a reader finds it."""
FILE_SCALE = 8
"""Pixels (or SVG units) per module in a saved file: large enough to print."""


def card_qr(card: Card) -> segno.QRCode | None:
    """The QR code of `card`'s contact (its vCard 3.0, UTF-8); None when the contact is
    too long for one (a QR code holds about 2,300 bytes at this error correction)."""
    try:
        return segno.make_qr(card_vcard(card), error="m", boost_error=False, encoding="utf-8")
    except segno.DataOverflowError:
        return None


def dark_modules(qr: segno.QRCode) -> list[list[bool]]:
    """The code's modules row by row, without the border: True where a module is dark."""
    return [[bool(module) for module in row] for row in qr.matrix]


def qr_bytes(qr: segno.QRCode, suffix: str) -> bytes:
    """The code as a PNG file, or as an SVG file for `suffix` ".svg"."""
    kind = "svg" if suffix.lower() == SVG_SUFFIX else "png"
    buffer = io.BytesIO()
    qr.save(buffer, kind=kind, scale=FILE_SCALE, border=BORDER)
    return buffer.getvalue()


def write_qr(path: Path, qr: segno.QRCode) -> None:
    """Save the code at `path`, as SVG for a ".svg" name and as PNG otherwise.

    Written whole or not at all; `OSError` says why not.
    """
    write_atomically(path, qr_bytes(qr, path.suffix))
