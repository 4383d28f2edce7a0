"""A card's QR code, read back as a phone's camera reads it: a decoder, then a vCard parser."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import segno
import vobject
import zxingcpp
from PIL import Image

from cardviewer.api.models import Card, parse_card
from cardviewer.services.card_qr import (
    BORDER,
    card_qr,
    dark_modules,
    qr_bytes,
    write_qr,
)
from cardviewer.services.vcard_export import card_vcard
from tests.demo_cards import demo_space_cards

SAMPLE = 24
"""Demo cards read back: every kind of tricky name is among the first ones."""


def demo_cards() -> list[Card]:
    return list(demo_space_cards()[:SAMPLE])


def qr_of(card: Card) -> segno.QRCode:
    qr = card_qr(card)
    assert qr is not None
    return qr


def decoded(image: Image.Image) -> str:
    (found,) = zxingcpp.read_barcodes(image)
    assert found.format == zxingcpp.BarcodeFormat.QRCode
    return str(found.text)


def contact(text: str) -> Any:
    (vcard,) = vobject.readComponents(text)
    return vcard


@pytest.mark.parametrize("card", demo_cards(), ids=lambda card: card.uuid)
def test_a_phone_reads_the_cards_contact_from_its_code(card: Card):
    text = decoded(Image.open(io.BytesIO(qr_bytes(qr_of(card), ".png"))))
    assert text == card_vcard(card)
    read = contact(text)
    assert read.fn.value == (card.display_name or "")
    addresses = [line.value for line in read.contents.get("email", [])]
    assert addresses == list(card.emails or [])


def test_the_modules_drawn_by_the_window_read_the_same():
    """The window paints `dark_modules` itself; painted with a border, a reader finds them."""
    card = demo_cards()[2]
    modules = dark_modules(qr_of(card))
    size = len(modules) + 2 * BORDER
    scale = 4
    image = Image.new("L", (size * scale, size * scale), 255)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                left, top = (x + BORDER) * scale, (y + BORDER) * scale
                image.paste(0, (left, top, left + scale, top + scale))
    assert decoded(image) == card_vcard(card)
    assert all(len(row) == len(modules) for row in modules), "a square"


def test_a_code_is_saved_as_png_or_svg_by_the_files_name(tmp_path: Path):
    card = demo_cards()[0]
    qr = qr_of(card)
    png, svg = tmp_path / "card.png", tmp_path / "card.SVG"
    write_qr(png, qr)
    write_qr(svg, qr)
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert decoded(Image.open(png)) == card_vcard(card)
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text
    assert "</svg>" in text


def test_a_code_that_cannot_be_written_leaves_no_file(tmp_path: Path):
    qr = qr_of(demo_cards()[0])
    target = tmp_path / "missing" / "card.png"
    with pytest.raises(FileNotFoundError):
        write_qr(target, qr)
    assert not target.parent.exists()


def test_a_saved_picture_has_the_standards_quiet_zone_and_room_to_print(tmp_path: Path):
    """Four light modules around the code, as the QR standard asks; eight pixels a module."""
    qr = qr_of(demo_cards()[0])
    side = len(dark_modules(qr))
    image = Image.open(io.BytesIO(qr_bytes(qr, ".png"))).convert("L")
    assert image.size == ((side + 2 * 4) * 8, (side + 2 * 4) * 8)
    quiet = [image.getpixel((x, y)) for x in range(image.width) for y in range(4 * 8)]
    assert set(quiet) == {255}
    assert image.getpixel((4 * 8, 4 * 8)) == 0, "a finder pattern's dark corner just inside"


def test_the_code_keeps_medium_error_correction(tmp_path: Path):
    """Medium, never boosted: a code of the same size, read from a smudged page."""
    assert {qr_of(card).error for card in demo_cards()} == {"M"}


def test_any_name_but_svg_is_saved_as_png(tmp_path: Path):
    qr = qr_of(demo_cards()[0])
    for name in ("card.txt", "card", "card.svg.png"):
        write_qr(tmp_path / name, qr)
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG"), name


def test_a_contact_too_long_for_a_qr_code_gets_none():
    """A QR code holds about 2,300 bytes here; a name of 5,000 letters does not fit."""
    assert card_qr(parse_card({"uuid": "long", "display_name": "x" * 5000})) is None
