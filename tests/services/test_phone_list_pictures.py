"""The phone list with each card's picture at the start of its row, read back from the PDF."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest

from cardviewer.api.models import Card, parse_card
from cardviewer.services.phone_list import (
    PICTURE_PIXELS,
    PhoneListStopped,
    initials,
    picture_jpeg,
    write_phone_list_pdf,
)
from cardviewer.services.vcard_export import PHOTO_BATCH
from cardviewer.services.vcard_photos import PhotoSource, blocking_lookup
from tests.pdf_layout import layouts
from tests.services.test_phone_list import DOT, TEXTS, a4, dots, metrics
from tests.services.test_vcard_photo import picture

HOST = "https://93.184.216.34"
"""A public address written literally, so that no host name has to be resolved."""
POINTS = 72 / 25.4
"""Points a millimetre."""
DISC = (round(228 / 255, 3),) * 3
INITIALS = (round(105 / 255, 3),) * 3


def card(number: int, *, own: bool = True, **fields: object) -> Card:
    avatar = {"uuid": f"av{number}" if own else None, "src": f"{HOST}/{number}.png"}
    data = {"uuid": f"c{number}", "display_name": f"Person {number}", "avatar": avatar}
    return parse_card({**data, **fields})


def address(number: int) -> str:
    return f"{HOST}/{number}.png"


JPEG = picture_jpeg(picture(40, 60))


def every_picture(cards: Sequence[Card]) -> dict[str, bytes]:
    """A lookup that has every card's picture."""
    return {address(int(c.uuid[1:])): JPEG for c in cards if c.uuid}


@pytest.fixture(scope="module")
def paper(qapp):
    return a4()


def test_a_picture_is_a_square_jpeg_sharp_on_paper(qapp):
    from PIL import Image

    image = Image.open(__import__("io").BytesIO(JPEG))
    assert image.format == "JPEG"
    assert image.size == (PICTURE_PIXELS, PICTURE_PIXELS)
    assert PICTURE_PIXELS / (13 / 25.4) >= 300, "300 dots an inch at 13 mm"


def test_each_row_starts_with_its_picture_and_the_text_moves_right_of_it(qapp, paper, tmp_path):
    cards = [
        card(n, position="Sales", emails=[f"p{n}@example.com", f"p{n}@example.org"])
        for n in range(3)
    ]
    target = tmp_path / "phones.pdf"
    assert write_phone_list_pdf(target, cards, TEXTS, pictures=every_picture) == 3
    (page,) = layouts(target)
    width = dots(210 - 2 * 15)
    big, text, small = metrics(paper, 9.5, bold=True), metrics(paper, 9.5), metrics(paper, 8)
    gap = text.lineSpacing() * 0.45
    header = big.lineSpacing() + 2 * gap
    side = dots(13)
    row = side + 2 * gap  # a picture is taller than a name and a position
    # The pictures: 13 mm, at the left margin, at the top of their rows.
    assert len(page.pictures) == 3
    paper_top = 297 * POINTS
    for number, drawn in enumerate(page.pictures):
        assert drawn.width == pytest.approx(13 * POINTS, abs=0.01)
        assert drawn.height == pytest.approx(13 * POINTS, abs=0.01)
        assert drawn.x == pytest.approx(15 * POINTS, abs=0.5), "at the left margin"
        top = paper_top - (drawn.y + drawn.height) - 15 * POINTS  # from the margin, in points
        assert top * 300 / 72 == pytest.approx(header + number * row + gap, abs=DOT)
    # The texts: name and position right of the picture, a gap between; the e-mails at
    # 55 % of what is left; rows as tall as the picture and its gaps.
    text_left = side + 2 * gap
    title, _date, *rows, footer = page.texts
    assert title.x == 0, "the header keeps its place"
    assert len(rows) == 3 * 4
    for number in range(3):
        name, position, first, second = rows[number * 4 : number * 4 + 4]
        top = header + number * row + gap
        assert name.words == f"Person {number}"
        assert name.x == pytest.approx(text_left, abs=DOT)
        assert position.x == pytest.approx(text_left, abs=DOT)
        assert top < name.y < top + big.lineSpacing()
        email_left = text_left + (width - text_left) * 0.55
        assert first.x == pytest.approx(email_left, abs=DOT)
        assert second.x == first.x
        assert page.rules[number + 1].y1 == pytest.approx(header + (number + 1) * row, abs=DOT)
    assert footer.words == "Page 1"
    assert dots(297 - 2 * 15) - small.lineSpacing() < footer.y < dots(297 - 2 * 15)
    assert page.shapes == [], "no disc where there is a picture"


def test_pictures_and_qr_codes_share_a_row_and_the_e_mails_stay_between(qapp, paper, tmp_path):
    narrow = "i" * 150 + "@example.com"  # narrow letters: its lines fill their width
    cards = [card(n, emails=[narrow]) for n in range(2)]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS, qr_codes=True, pictures=every_picture)
    (page,) = layouts(target)
    text = metrics(paper, 9.5)
    gap = text.lineSpacing() * 0.45
    right = dots(210 - 2 * 15)
    pictures = [p for p in page.pictures if p.width < 20 * POINTS]
    codes = [p for p in page.pictures if p.width > 20 * POINTS]
    assert len(pictures) == len(codes) == 2
    for picture_drawn, code in zip(pictures, codes, strict=True):
        assert picture_drawn.x == pytest.approx(15 * POINTS, abs=0.5)
        assert code.x + code.width == pytest.approx((210 - 15) * POINTS, abs=0.5)
        tops = [p.y + p.height for p in (picture_drawn, code)]
        assert tops[0] == pytest.approx(tops[1], abs=0.1), "both at the top of the row"
    assert pictures[0].y - pictures[1].y == pytest.approx((dots(24) + 2 * gap) * 72 / 300, abs=0.5)
    text_left = dots(13) + 2 * gap
    lines = [t for t in page.texts[2:] if t.x >= text_left + (right - text_left) * 0.55 - DOT]
    assert "".join(line.words for line in lines) == narrow * 2, "broken, never cut"
    for line in lines:
        assert line.x + text.horizontalAdvance(line.words) <= right - dots(24) - gap + DOT


@pytest.mark.parametrize("emails", [0, 6])
def test_a_page_with_pictures_holds_as_many_rows_as_fit_above_the_footer(
    qapp, paper, tmp_path, emails
):
    addresses = [f"p{n}@example.com" for n in range(emails)]
    cards = [
        card(n, display_name=f"Person {n:03}", position="Sales", emails=addresses)
        for n in range(60)
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS, pictures=every_picture)
    big, text, small = metrics(paper, 9.5, bold=True), metrics(paper, 9.5), metrics(paper, 8)
    gap = text.lineSpacing() * 0.45
    header = big.lineSpacing() + 2 * gap
    lines = max(big.lineSpacing() + text.lineSpacing(), min(emails, 5) * text.lineSpacing())
    row = max(lines, dots(13)) + 2 * gap
    room = dots(297 - 2 * 15) - small.lineSpacing() - gap - header
    pages = layouts(target)
    per_page = [sum(t.words.startswith("Person") for t in page.texts) for page in pages]
    assert per_page[0] == int(room // row)
    assert sum(per_page) == 60
    assert [len(page.pictures) for page in pages] == per_page, "a picture a row"


def pdftotext(path: Path) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler's pdftotext")
def test_a_card_without_a_picture_shows_its_initials_on_a_grey_disc(qapp, paper, tmp_path):
    cards = [
        card(0),  # its picture is had
        card(1),  # its picture could not be had
        card(2, own=False),  # the platform's default picture: no one's
        card(3, display_name="Ada Lovelace", avatar=None),
        card(4, display_name=None),
    ]

    def lookup(asked: Sequence[Card]) -> dict[str, bytes]:
        return {address(0): JPEG}

    target = tmp_path / "phones.pdf"
    assert write_phone_list_pdf(target, cards, TEXTS, pictures=lookup) == 5
    (page,) = layouts(target)
    assert len(page.pictures) == 1
    discs = [s for s in page.shapes if s.colour == DISC]
    letters = [s for s in page.shapes if s.colour == INITIALS]
    assert len(discs) == 4, "each card without its picture"
    side = dots(13)
    for disc in discs:
        assert [disc.left, disc.right] == pytest.approx([0, side], abs=DOT), "at the left"
        assert disc.bottom - disc.top == pytest.approx(side, abs=DOT)
    with_initials = discs[:3]  # the card without a name has none
    assert len(letters) == 3
    for disc, drawn in zip(with_initials, letters, strict=True):
        assert disc.left < drawn.left < drawn.right < disc.right
        assert disc.top < drawn.top < drawn.bottom < disc.bottom
        middle = ((drawn.left + drawn.right) / 2, (drawn.top + drawn.bottom) / 2)
        centre = ((disc.left + disc.right) / 2, (disc.top + disc.bottom) / 2)
        assert list(middle) == pytest.approx(list(centre), abs=DOT), "in the middle"
    text = pdftotext(target)
    for name in ("Person 0", "Person 1", "Person 2", "Ada Lovelace", "(no name)"):
        assert name in text
    assert "AL" not in text, "initials are shapes: copying the list gives names only"
    assert "P1" not in text.replace("Person 1", "")


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("Ada Lovelace", "AL"),
        ("ada", "A"),
        ("Dr. Ana O'Neil, PhD", "DP"),
        ("Smith, Jane", "SJ"),
        ('Maximilian "Max" Müller', "MM"),
        ("王芳", "王"),
        ("ليلى الخطيب", "لا"),
        ("  ", ""),
        ("— !", ""),
    ],
)
def test_initials_are_the_first_letters_of_the_first_and_last_word(name, letters):
    assert initials(name) == letters


def test_pictures_are_asked_for_a_batch_at_a_time_as_the_rows_are_painted(qapp, tmp_path):
    """A whole space's pictures are never in memory: a batch's, then the next's."""
    taken: list[int] = []
    asked: list[tuple[int, int]] = []  # (cards asked for, cards read so far)

    def cards() -> Iterator[Card]:
        for number in range(150):
            taken.append(number)
            yield card(number)

    def lookup(batch: Sequence[Card]) -> dict[str, bytes]:
        asked.append((len(batch), len(taken)))
        return every_picture(batch)

    write_phone_list_pdf(tmp_path / "phones.pdf", cards(), TEXTS, pictures=lookup)
    assert PHOTO_BATCH == 64
    assert asked == [(64, 64), (64, 128), (22, 150)]


def test_a_stop_while_pictures_are_awaited_ends_the_list(qapp, tmp_path):
    stop = threading.Event()
    asked: list[int] = []

    def lookup(batch: Sequence[Card]) -> dict[str, bytes]:
        asked.append(len(batch))
        stop.set()  # Cancel, pressed while the pictures come
        return {}

    target = tmp_path / "phones.pdf"
    target.write_bytes(b"the list before")
    cards = [card(n) for n in range(200)]
    with pytest.raises(PhoneListStopped):
        write_phone_list_pdf(target, cards, TEXTS, stop=stop, pictures=lookup)
    assert asked == [64], "no further batch asked for"
    assert target.read_bytes() == b"the list before"


def test_pictures_from_the_image_host_and_one_that_fails_costs_only_its_picture(qapp, tmp_path):
    """As the window and `cardviewer export` paint: a `PhotoSource` on the loop, the list
    on a worker thread."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/1.png":
            return httpx.Response(404)
        if request.url.path == "/2.png":
            return httpx.Response(200, content=b"no picture at all")
        return httpx.Response(200, content=picture(30, 30))

    cards = [card(n) for n in range(4)]
    target = tmp_path / "phones.pdf"

    async def run() -> int:
        source = PhotoSource(picture_jpeg, transport=httpx.MockTransport(answer))
        try:
            lookup = blocking_lookup(source, asyncio.get_running_loop())
            return await asyncio.to_thread(
                write_phone_list_pdf, target, cards, TEXTS, pictures=lookup
            )
        finally:
            await source.aclose()

    assert asyncio.run(run()) == 4
    (page,) = layouts(target)
    assert len(page.pictures) == 2, "cards 0 and 3"
    assert len([s for s in page.shapes if s.colour == DISC]) == 2, "cards 1 and 2: initials"
    assert [t.words for t in page.texts if t.words.startswith("Person")] == [
        f"Person {n}" for n in range(4)
    ]
