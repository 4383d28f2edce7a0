"""The printed phone list, read back from the PDF as a text extractor reads it."""

from __future__ import annotations

import dataclasses
import functools
import os
import pickle
import subprocess
import sys
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pypdf
import pytest
from PySide6.QtCore import QBuffer, QMarginsF
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPdfWriter,
)

from cardviewer.api.models import Card, parse_card
from cardviewer.services import phone_list
from cardviewer.services.phone_list import (
    MAX_EMAILS,
    PhoneListStopped,
    PhoneListTexts,
    broken_address,
    export_space_phone_list,
    qr_image,
    titled,
    wrapped_words,
    write_phone_list,
    write_phone_list_pdf,
)
from cardviewer.services.process_job import run_in_process
from cardviewer.services.stoppable import PROGRESS_EVERY, Painted
from tests.demo_cards import demo_space_cards
from tests.pdf_layout import layouts

TEXTS = PhoneListTexts(
    title="Acme Europe GmbH — phone list",
    date="27 November 2026",
    page="Page %1",
    more_emails="+%1 more",
    no_name="(no name)",
)


@pytest.fixture(scope="module")
def demo_cards() -> list[Card]:
    return list(demo_space_cards())


def words(text: str) -> str:
    """`text` as extracted, spaces made one and ligatures ("ﬁ") letters again."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


@functools.cache
def has_a_font(char: str) -> bool:
    """Some font on this computer draws `char` (a fresh machine may have Latin ones only)."""
    return char.isspace() or any(
        QFontMetricsF(QFont(family)).inFontUcs4(ord(char)) for family in QFontDatabase.families()
    )


def printable(name: str) -> bool:
    return all(map(has_a_font, name))


def letters(name: str) -> str:
    """`name` without pictographs: a colour emoji is printed as a picture, not as text."""
    return words("".join(char for char in name if unicodedata.category(char) != "So"))


def pages_of(path: Path) -> list[str]:
    return [words(page.extract_text()) for page in pypdf.PdfReader(path).pages]


def test_every_card_is_listed_with_position_and_e_mails_under_a_heading(qapp, demo_cards, tmp_path):
    target = tmp_path / "phones.pdf"
    assert write_phone_list_pdf(target, demo_cards, TEXTS) == len(demo_cards)
    pages = pages_of(target)
    assert len(pages) > 1
    for number, page in enumerate(pages, start=1):
        assert page.startswith("Acme Europe GmbH — phone list 27 November 2026")
        assert page.endswith(f"Page {number}")
    everything = " ".join(pages)
    unbroken = everything.replace(" ", "")
    assert printable("Zoë Müller"), "these checks need a font for Latin letters at least"
    for card in demo_cards:
        for address in (card.emails or [])[:MAX_EMAILS]:
            assert address in unbroken, "whole, if on two lines"
        name = letters(card.display_name or "(no name)")
        if not printable(name):
            continue  # drawn as empty boxes here, as on any screen without such a font
        # Right-to-left names come out of the extractor in the order they are drawn.
        assert name in everything or name[::-1] in everything
    if printable("陈雪"):
        assert "陈雪" in everything, "Chinese names in a font that has them"
    if printable("ليلى الخطيب"):
        assert "بيطخلا ىليل" in everything, "an Arabic name, drawn right to left"


def test_a_card_with_many_addresses_shows_the_first_and_counts_the_rest(qapp, tmp_path):
    many = [f"person{n}@example.com" for n in range(6)]
    card = parse_card({"uuid": "many", "display_name": "Many Mails", "emails": many})
    target = tmp_path / "many.pdf"
    write_phone_list_pdf(target, [card], TEXTS)
    (page,) = pages_of(target)
    assert all(address in page for address in many[:4]), "four of them"
    assert many[4] not in page
    assert "+2 more" in page


def test_an_empty_list_is_one_page_with_its_heading(qapp, tmp_path):
    target = tmp_path / "none.pdf"
    assert write_phone_list_pdf(target, [], TEXTS) == 0
    assert pages_of(target) == ["Acme Europe GmbH — phone list 27 November 2026 Page 1"]


FILLED_NEAR_THE_END = """
import resource, signal, sys
from pathlib import Path
from PySide6.QtGui import QGuiApplication
from cardviewer.api.models import parse_card
from cardviewer.services.phone_list import PhoneListTexts, write_phone_list_pdf

app = QGuiApplication([])
target, scratch = Path(sys.argv[1]), Path(sys.argv[2])
texts = PhoneListTexts("Phone list", "27 November 2026", "Page %1", "+%1 more", "(no name)")
cards = [parse_card({"uuid": f"c{n}", "display_name": f"Person {n}"}) for n in range(300)]
write_phone_list_pdf(scratch, cards, texts)
size = scratch.stat().st_size
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
resource.setrlimit(resource.RLIMIT_FSIZE, (size - 2000, resource.RLIM_INFINITY))
try:
    write_phone_list_pdf(target, cards, texts)
except OSError as error:
    print("refused:", error)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="a file size limit is POSIX's")
def test_a_disk_that_fills_near_the_end_leaves_the_earlier_file(tmp_path):
    """A QFile tells no one of a short write: the PDF was cut short, and took the place
    of the good one before it."""
    target = tmp_path / "phones.pdf"
    target.write_bytes(b"the list before")
    done = subprocess.run(
        [sys.executable, "-c", FILLED_NEAR_THE_END, str(target), str(tmp_path / "whole.pdf")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        check=True,
    )
    assert done.stdout.startswith("refused: "), done.stdout + done.stderr
    assert "bytes written" in done.stdout
    assert target.read_bytes() == b"the list before"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["phones.pdf", "whole.pdf"]


def test_calling_it_off_leaves_the_earlier_file(qapp, demo_cards, tmp_path):
    target = tmp_path / "phones.pdf"
    target.write_bytes(b"the list before")
    stop = threading.Event()

    def cards() -> Iterator[Card]:
        for number, card in enumerate(demo_cards):
            if number == 30:
                stop.set()
            yield card

    with pytest.raises(PhoneListStopped):
        write_phone_list_pdf(target, cards(), TEXTS, stop=stop)
    assert target.read_bytes() == b"the list before"
    assert [path.name for path in tmp_path.iterdir()] == ["phones.pdf"]


def test_a_list_that_cannot_be_written_leaves_nothing(qapp, demo_cards, tmp_path):
    target = tmp_path / "gone" / "phones.pdf"
    with pytest.raises(FileNotFoundError):
        write_phone_list_pdf(target, demo_cards, TEXTS)
    assert not target.parent.exists()


def test_cards_are_read_as_they_are_painted(qapp, demo_cards, tmp_path):
    """A large space is never held whole: the list takes one card at a time."""
    taken: list[int] = []

    def cards() -> Iterator[Card]:
        for number, card in enumerate(demo_cards):
            taken.append(number)
            yield card

    write_phone_list_pdf(tmp_path / "phones.pdf", cards(), TEXTS)
    assert taken == list(range(len(demo_cards)))


# Lines of names and addresses, measured a character a unit


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        ("Ada Lovelace", 20, ["Ada Lovelace"]),
        ("Ada Lovelace", 12, ["Ada Lovelace"]),
        ("Ada Lovelace", 11, ["Ada", "Lovelace"]),
        (
            "Regional Sales Director, Southern Europe",
            16,
            ["Regional Sales", "Director,", "Southern Europe"],
        ),
        ("Supercalifragilistic", 5, ["Supercalifragilistic"]),
        ("a Supercalifragilistic b", 5, ["a", "Supercalifragilistic", "b"]),
        ("Two\nlines", 20, ["Two", "lines"]),
        ("", 5, [""]),
    ],
)
def test_names_wrap_between_words(text: str, width: int, lines: list[str]):
    assert wrapped_words(text, width, len) == lines


@pytest.mark.parametrize(
    ("address", "width", "lines"),
    [
        ("ada@acme.example", 16, ["ada@acme.example"]),
        ("ada@acme.example", 15, ["ada@acme.", "example"]),
        ("maria.fernanda.garcia@acme.example", 24, ["maria.fernanda.garcia@", "acme.example"]),
        # "maria." would leave the line half empty: cut where the width ends instead
        ("maria.fernanda.garcia@acme.example", 12, ["maria.fernan", "da.garcia@", "acme.example"]),
        ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
        ("ab.cdefghij", 6, ["ab.cde", "fghij"]),
        ("abc-defghij", 6, ["abc-", "defghi", "j"]),
        ("abc", 0, ["a", "b", "c"]),
        ("a", 0, ["a"]),
    ],
)
def test_an_address_is_broken_into_lines_never_cut(address: str, width: int, lines: list[str]):
    broken = broken_address(address, width, len)
    assert broken == lines
    assert "".join(broken) == address


def test_each_page_is_filled_with_rows_before_the_next_begins(qapp, tmp_path):
    """Cards of one size: every page but the last holds the same number, an A4 page's worth."""
    cards = [
        parse_card(
            {
                "uuid": f"c{n}",
                "display_name": f"Person {n:03}",
                "position": "Sales",
                "emails": [f"person{n:03}@example.com"],
            }
        )
        for n in range(100)
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS)
    per_page = [page.count("Person ") for page in pages_of(target)]
    assert sum(per_page) == 100
    full, last = per_page[:-1], per_page[-1]
    assert len(set(full)) == 1
    assert 0 < last <= full[0]
    assert 20 <= full[0] <= 26, "two lines a card and a little room between cards"
    names = " ".join(pages_of(target))
    assert names.index("Person 000") < names.index("Person 099"), "in the order given"


def test_each_card_can_carry_its_qr_code_that_a_phone_reads(qapp, tmp_path):
    import zxingcpp

    from cardviewer.services.card_qr import card_qr
    from cardviewer.services.vcard_export import card_vcard

    cards = list(demo_space_cards()[:6])
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS, qr_codes=True)
    pictures = [picture.image for page in pypdf.PdfReader(target).pages for picture in page.images]
    assert len(pictures) == len(cards)
    read = [zxingcpp.read_barcodes(picture)[0].text for picture in pictures]
    assert read == [card_vcard(card) for card in cards]
    first = card_qr(cards[0])
    assert first is not None
    assert first.error == "M"
    plain = tmp_path / "plain.pdf"
    write_phone_list_pdf(plain, cards, TEXTS)
    assert [p for page in pypdf.PdfReader(plain).pages for p in page.images] == []


def test_a_contact_too_long_for_a_qr_code_leaves_its_row_without_one(qapp, tmp_path):
    cards = [
        parse_card({"uuid": "a", "display_name": "Ada"}),
        parse_card({"uuid": "b", "display_name": "B" * 5000}),
    ]
    target = tmp_path / "phones.pdf"
    assert write_phone_list_pdf(target, cards, TEXTS, qr_codes=True) == 2
    assert len([p for page in pypdf.PdfReader(target).pages for p in page.images]) == 1


def test_a_row_never_runs_off_its_page(qapp, tmp_path):
    """An absurd address is cut after a few lines; every page keeps its number."""
    huge = "a" * 5000 + "@example.com"
    cards = [
        parse_card({"uuid": f"c{n}", "display_name": f"P{n}", "emails": [huge]}) for n in range(3)
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS)
    pages = pages_of(target)
    assert pages[-1].endswith(f"Page {len(pages)}")
    assert len(pages) == 1, "three short rows on one page"
    assert "a" * 4000 not in "".join(pages).replace(" ", "")


# Where things go on the paper: read back from the PDF's drawing, in its units (dots at
# `RESOLUTION` a inch, from the corner of the margins), and worked out here from the
# rules of the layout as a reader would state them.

DOT = 1.5
"""Dots of tolerance: Qt places text and lines on whole dots."""


def a4(resolution: int = 300) -> QPdfWriter:
    """A device as the list's: A4 with 15 mm margins, 300 dots an inch."""
    writer = QPdfWriter(QBuffer())
    writer.setResolution(resolution)
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 15, 15, 15),
            QPageLayout.Unit.Millimeter,
        )
    )
    return writer


@pytest.fixture(scope="module")
def paper(qapp) -> QPdfWriter:
    return a4()


def metrics(paper: QPdfWriter, points: float, *, bold: bool = False) -> QFontMetricsF:
    font = QFont()
    font.setPointSizeF(points)
    font.setBold(bold)
    return QFontMetricsF(font, paper)


def dots(millimetres: float) -> float:
    return millimetres / 25.4 * 300


GREY = round(90 / 255, 3)
POSITION_GREY = round(70 / 255, 3)
RULE_GREY = round(200 / 255, 3)
BLACK = (0.0, 0.0, 0.0)


def grey(level: float) -> tuple[float, float, float]:
    return (level, level, level)


def test_the_page_is_laid_out_as_a_phone_list(qapp, paper, tmp_path):
    """Header, rules, rows in two columns and the footer, where and how they are drawn."""
    cards = [
        parse_card(
            {
                "uuid": f"c{n}",
                "display_name": f"Person {n}",
                "position": "Sales",
                "emails": [f"p{n}@example.com", f"p{n}@example.org"],
            }
        )
        for n in range(3)
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS)
    reader = pypdf.PdfReader(target)
    assert [float(side) for side in reader.pages[0].mediabox[2:]] == pytest.approx(
        [595.0, 842.0], abs=1
    ), "A4"
    (page,) = layouts(target)
    assert page.scale[0] == pytest.approx(72 / 300, abs=0.001), "300 dots an inch"
    assert page.scale[4] == pytest.approx(15 / 25.4 * 72, abs=0.5), "the left margin: 15 mm"
    width = dots(210 - 2 * 15)
    height = dots(297 - 2 * 15)
    big = metrics(paper, 9.5, bold=True)
    text = metrics(paper, 9.5)
    small = metrics(paper, 8)
    gap = text.lineSpacing() * 0.45
    title, date, *rows, footer = page.texts
    # The header: the space in bold on the left, the date small and grey on the right.
    assert (title.words, title.x, title.bold, title.colour) == (TEXTS.title, 0.0, True, BLACK)
    assert title.size == pytest.approx(dots(9.5 / 72 * 25.4), abs=0.5)
    assert 0 < title.y < big.lineSpacing()
    assert date.words == TEXTS.date
    assert date.size == pytest.approx(dots(8 / 72 * 25.4), abs=0.5)
    assert not date.bold
    assert date.colour == grey(GREY)
    assert date.x + small.horizontalAdvance(TEXTS.date) == pytest.approx(width, abs=3 * DOT)
    assert 0 < date.y < big.lineSpacing()
    # A thin grey rule under the header and under each row, across the page.
    header = big.lineSpacing() + 2 * gap
    assert page.rules[0].y1 == int(big.lineSpacing() + gap), "from the very top"
    for rule in page.rules:
        assert (rule.x1, rule.y1 == rule.y2, rule.colour, rule.width) == (
            0.0,
            True,
            grey(RULE_GREY),
            1.0,
        )
        assert rule.x2 == pytest.approx(width, abs=2 * DOT)
    # Each row: the name in bold, the position under it in grey, the e-mails beside them
    # from 55 % of the width on, one under the other; a gap above and below.
    row = big.lineSpacing() + text.lineSpacing() + 2 * gap
    assert len(rows) == 3 * 4
    for number in range(3):
        name, position, first, second = rows[number * 4 : number * 4 + 4]
        top = header + number * row + gap
        assert (name.words, name.x, name.bold, name.colour) == (f"Person {number}", 0, True, BLACK)
        assert top < name.y < top + big.lineSpacing()
        assert (position.words, position.x, position.bold) == ("Sales", 0, False)
        assert position.colour == grey(POSITION_GREY)
        assert position.y - name.y == pytest.approx(big.lineSpacing(), abs=3 * DOT)
        assert (first.words, first.bold, first.colour) == (f"p{number}@example.com", False, BLACK)
        assert first.x == pytest.approx(width * 0.55, abs=DOT)
        assert first.y == pytest.approx(name.y, abs=3 * DOT)
        assert (second.words, second.x) == (f"p{number}@example.org", first.x)
        assert second.y - first.y == pytest.approx(text.lineSpacing(), abs=DOT)
        assert page.rules[number + 1].y1 == pytest.approx(header + (number + 1) * row, abs=DOT)
    # The footer: the page's number, small and grey, in the middle of the last line.
    assert (footer.words, footer.bold, footer.colour) == ("Page 1", False, grey(GREY))
    assert footer.size == date.size
    middle = footer.x + small.horizontalAdvance("Page 1") / 2
    assert middle == pytest.approx(width / 2, abs=3 * DOT)
    assert height - small.lineSpacing() < footer.y < height


def test_a_long_title_is_cut_before_the_date(qapp, paper, tmp_path):
    long = replace(TEXTS, title="Acme Europe GmbH, " * 20)
    target = tmp_path / "long.pdf"
    write_phone_list_pdf(target, [], long)
    title, date, _footer = layouts(target)[0].texts
    width = dots(210 - 2 * 15)
    assert title.words.endswith("…")
    drawn = metrics(paper, 9.5, bold=True).horizontalAdvance(title.words)
    assert width * 0.6 < drawn <= width * 0.7, "seven tenths of the width, the rest the date's"
    assert date.words == TEXTS.date


def test_a_rows_qr_code_is_24_mm_at_its_right_end_at_the_top_of_the_row(qapp, paper, tmp_path):
    from cardviewer.services.card_qr import card_qr, dark_modules

    narrow = "i" * 150 + "@example.com"  # narrow letters: its lines fill their width
    cards = [
        parse_card({"uuid": f"c{n}", "display_name": f"Person {n}", "emails": [narrow]})
        for n in range(2)
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS, qr_codes=True)
    (page,) = layouts(target)
    side = 24 / 25.4 * 72
    margin = 15 / 25.4 * 72
    paper_width = 210 / 25.4 * 72
    text = metrics(paper, 9.5)
    gap = text.lineSpacing() * 0.45
    row = dots(24) + 2 * gap  # a QR code is taller than two lines
    first, second = page.pictures
    for picture in page.pictures:
        assert picture.width == pytest.approx(side)
        assert picture.height == pytest.approx(side)
        assert picture.x + side == pytest.approx(paper_width - margin, abs=0.5)
    assert first.y - second.y == pytest.approx(row * 72 / 300, abs=0.5), "one a row"
    right = dots(210 - 2 * 15)
    lines = [t for t in page.texts[2:] if t.x >= right * 0.55 - DOT]  # the e-mails
    assert "".join(line.words for line in lines) == narrow * 2, "broken, never cut"
    for line in lines:  # a gap between the e-mails and the code
        assert line.x + text.horizontalAdvance(line.words) <= right - dots(24) - gap + DOT
    modules = len(dark_modules(card_qr(cards[0])))  # type: ignore[arg-type]
    image = pypdf.PdfReader(target).pages[0].images[0].image
    assert image is not None
    assert image.size == ((modules + 8) * 4, (modules + 8) * 4), "4 pixels a module"
    drawn = qr_image(dark_modules(card_qr(cards[0])), 2)  # type: ignore[arg-type]
    colours = {drawn.pixelColor(x, y).name() for x in range(drawn.width()) for y in range(2)}
    colours |= {drawn.pixelColor(9, y).name() for y in range(drawn.height())}
    assert colours == {"#000000", "#ffffff"}, "black modules on white, nothing between"


def test_the_cards_painted_are_told_now_and_then_and_at_the_end(qapp, tmp_path):
    cards = [parse_card({"uuid": f"c{n}", "display_name": f"P{n}"}) for n in range(501)]
    told: list[int] = []
    write_phone_list_pdf(tmp_path / "list.pdf", cards, TEXTS, painted=told.append)
    assert PROGRESS_EVERY == 250, "a few reports a second for a whole space"
    assert told == [250, 500, 501]
    told.clear()
    write_phone_list_pdf(tmp_path / "none.pdf", [], TEXTS, painted=told.append)
    assert told == [0]


class Withdrawing(QPdfWriter):
    """A printer whose system takes a job back (`QPrinter.abort`), or not."""

    def __init__(self, path: Path, *, can: bool) -> None:
        super().__init__(str(path))
        self.can = can
        self.aborted = 0

    def abort(self) -> bool:
        self.aborted += 1
        return self.can


@pytest.mark.parametrize("can", [True, False])
def test_a_printer_stopped_is_asked_to_take_the_job_back(qapp, tmp_path, can):
    cards = [parse_card({"uuid": f"c{n}", "display_name": f"P{n}"}) for n in range(600)]
    stop = threading.Event()
    device = Withdrawing(tmp_path / "printed.pdf", can=can)
    with pytest.raises(PhoneListStopped) as stopped:
        write_phone_list(device, cards, TEXTS, stop=stop, painted=lambda _count: stop.set())
    assert device.aborted == 1
    assert stopped.value.withdrawn is can
    with pytest.raises(PhoneListStopped) as stopped:  # a file: nothing to take back
        write_phone_list_pdf(tmp_path / "x.pdf", cards, TEXTS, stop=stop)
    assert not stopped.value.withdrawn


@pytest.mark.parametrize("emails", [0, 3, 4, 6])
def test_a_page_holds_as_many_rows_as_fit_above_the_footer(qapp, paper, tmp_path, emails):
    """Rows of two to five lines (a name and position; up to four e-mails and "+2 more")."""
    addresses = [f"p{n}@example.com" for n in range(emails)]
    cards = [
        parse_card(
            {
                "uuid": f"c{n}",
                "display_name": f"Person {n:03}",
                "position": "Sales",
                "emails": addresses,
            }
        )
        for n in range(60)
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS)
    big, text, small = metrics(paper, 9.5, bold=True), metrics(paper, 9.5), metrics(paper, 8)
    gap = text.lineSpacing() * 0.45
    header = big.lineSpacing() + 2 * gap
    lines = max(big.lineSpacing() + text.lineSpacing(), min(emails, 5) * text.lineSpacing())
    row = lines + 2 * gap
    room = dots(297 - 2 * 15) - small.lineSpacing() - gap - header  # a gap over the footer
    per_page = [sum(t.words.startswith("Person") for t in page.texts) for page in layouts(target)]
    assert per_page[0] == int(room // row)
    assert sum(per_page) == 60


def test_names_and_positions_wrap_in_their_column_and_make_the_row_taller(qapp, paper, tmp_path):
    width = dots(210 - 2 * 15)
    big, text = metrics(paper, 9.5, bold=True), metrics(paper, 9.5)
    gap = text.lineSpacing() * 0.45
    long = " ".join(f"Iiii{n:02}" for n in range(60))  # narrow: each line fills its width
    cards = [
        parse_card({"uuid": "a", "display_name": long, "position": long, "emails": ["a@b.c"]}),
        parse_card({"uuid": "b", "display_name": "Next"}),
    ]
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, cards, TEXTS)
    (page,) = layouts(target)
    names = [t for t in page.texts if t.x == 0 and t.bold and t.words != TEXTS.title]
    positions = [t for t in page.texts if t.x == 0 and not t.bold]
    assert len(names) == 1 + 3, "three lines of a name, the last cut with …"
    assert len(positions) == 3
    assert names[2].words.endswith("…")
    assert positions[2].words.endswith("…")
    shown = " ".join(line.words for line in names[:3]).removesuffix("…")
    assert long.startswith(shown.rstrip()), "the first three lines, in order"
    column = width * 0.55 - gap  # the name's column, a gap before the e-mails
    for line in names[:3] + positions:
        font = big if line.bold else text
        drawn = font.horizontalAdvance(line.words)
        assert column - font.horizontalAdvance("Iiii00 ") < drawn <= column + DOT, line.words
    row = 3 * big.lineSpacing() + 3 * text.lineSpacing() + 2 * gap
    header = big.lineSpacing() + 2 * gap
    assert page.rules[1].y1 == int(header + row)
    assert names[3].words == "Next"
    assert header + row + gap < names[3].y < header + row + gap + big.lineSpacing()


def test_a_name_of_exactly_three_lines_is_shown_whole(qapp, paper, tmp_path):
    width = dots(210 - 2 * 15) * 0.55 - metrics(paper, 9.5).lineSpacing() * 0.45
    bold = metrics(paper, 9.5, bold=True)
    words: list[str] = []
    lines = 0
    while lines < 3 or bold.horizontalAdvance(" ".join(words[-3:])) < width / 2:
        words.append(f"Name{len(words)}")
        lines = len(wrapped_words(" ".join(words), width, bold.horizontalAdvance))
        if lines > 3:
            words.pop()
            break
    name = " ".join(words)
    assert len(wrapped_words(name, width, bold.horizontalAdvance)) == 3
    target = tmp_path / "three.pdf"
    write_phone_list_pdf(target, [parse_card({"uuid": "a", "display_name": name})], TEXTS)
    (page,) = layouts(target)
    shown = [t.words for t in page.texts if t.x == 0 and t.bold and t.words != TEXTS.title]
    assert len(shown) == 3
    assert " ".join(shown) == name, "whole, with no …"


def test_an_absurd_address_shows_four_lines_the_last_cut(qapp, paper, tmp_path):
    huge = "".join(chr(ord("a") + n % 26) for n in range(3000)) + "@example.com"
    target = tmp_path / "phones.pdf"
    write_phone_list_pdf(target, [parse_card({"uuid": "a", "emails": [huge]})], TEXTS)
    (page,) = layouts(target)
    width = dots(210 - 2 * 15)
    lines = [t.words for t in page.texts[2:-1] if t.x > width / 2]
    assert len(lines) == 4
    assert "".join(lines[:3]) == huge[: sum(map(len, lines[:3]))], "the address's start, whole"
    assert lines[3].endswith("…")
    assert huge.startswith("".join(lines)[:-1])


def test_the_rules_are_a_printer_dot_wide_at_any_resolution(qapp, tmp_path):
    for resolution, width in ((150, 1.0), (300, 1.0), (1200, 4.0)):
        buffer = QBuffer()
        buffer.open(QBuffer.OpenModeFlag.WriteOnly)
        device = a4(resolution)
        device = QPdfWriter(buffer)
        device.setResolution(resolution)
        write_phone_list(device, [parse_card({"uuid": "a", "display_name": "A"})], TEXTS)
        del device
        target = tmp_path / f"at-{resolution}.pdf"
        target.write_bytes(bytes(buffer.data().data()))
        rules = layouts(target)[0].rules
        assert rules
        assert {rule.width for rule in rules} == {width}, resolution


def test_without_asking_no_qr_codes_are_drawn(qapp, tmp_path):
    buffer = QBuffer()
    buffer.open(QBuffer.OpenModeFlag.WriteOnly)
    device = QPdfWriter(buffer)
    write_phone_list(device, [parse_card({"uuid": "a", "display_name": "A"})], TEXTS)
    del device
    target = tmp_path / "plain.pdf"
    target.write_bytes(bytes(buffer.data().data()))
    assert len(pypdf.PdfReader(target).pages[0].images) == 0


def test_the_words_on_a_page_cannot_change_while_it_is_painted():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TEXTS.title = "Something else"  # type: ignore[misc]


def test_the_title_names_the_space_as_its_first_card_carries_it():
    texts = replace(TEXTS, title="Phone list of %1")
    card = parse_card({"uuid": "a", "display_name": "A", "space": {"name": "Acme Europe"}})
    named, cards = titled(texts, [card, card], "space-7")
    assert named.title == "Phone list of Acme Europe"
    assert list(cards) == [card, card], "every card still comes, the first included"
    nameless = parse_card({"uuid": "b", "display_name": "B"})
    named, cards = titled(texts, iter([nameless]), "space-7")
    assert named.title == "Phone list of space-7"
    assert list(cards) == [nameless]
    named, cards = titled(texts, iter([]), "space-7")
    assert named.title == "Phone list of space-7"
    assert list(cards) == []


def test_a_whole_space_is_fetched_kept_aside_and_painted_in_its_order(qapp, tmp_path):
    import asyncio

    from cardviewer.api.models import CardPage

    def page(number: int) -> CardPage:
        cards = [
            {"uuid": f"c{number}-{n}", "display_name": f"Person {number}.{n}"} for n in range(3)
        ]
        meta = {"current_page": number, "last_page": 2, "per_page": 3, "total": 6}
        return CardPage.model_validate({"cards": cards, "meta": meta, "links": {}})

    async def fetch(number: int) -> CardPage:
        return page(number)

    target = tmp_path / "space.pdf"
    count = asyncio.run(export_space_phone_list(fetch, target, TEXTS, "space-7"))
    assert count == 6
    (text,) = pages_of(target)
    names = [f"Person {p}.{n}" for p in (1, 2) for n in range(3)]
    assert [text.index(name) for name in names] == sorted(text.index(name) for name in names)
    assert len(pypdf.PdfReader(target).pages[0].images) == 0, "no QR codes unless asked"


@pytest.mark.parametrize(
    ("platform", "display", "wayland", "drawn"),
    [
        ("linux", None, None, "offscreen"),
        ("linux", ":0", None, None),
        ("linux", None, "wayland-0", None),
        ("linux", ":0", "wayland-0", None),
        ("darwin", None, None, None),
        ("win32", None, None, None),
    ],
)
def test_a_program_without_a_display_draws_off_screen(
    monkeypatch, platform, display, wayland, drawn
):
    """`cardviewer export` on a server: Qt draws off screen where Linux has no display."""
    made: list[list[str]] = []

    class Application:  # stands in for Qt's, which a test process has already
        @staticmethod
        def instance() -> object:
            return made[0] if made else None

        def __init__(self, arguments: list[str]) -> None:
            made.append(arguments)

    monkeypatch.setattr(phone_list, "QGuiApplication", Application)
    monkeypatch.setattr(phone_list, "_APPLICATION", None)
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.delenv("QT_QPA_PLATFORM")
    for name, value in (("DISPLAY", display), ("WAYLAND_DISPLAY", wayland)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    phone_list.ensure_application()
    phone_list.ensure_application()
    assert made == [["cardviewer"]], "one application, made once"
    assert os.environ.get("QT_QPA_PLATFORM") == drawn


def application_here(*, stop: threading.Event, painted: Painted) -> tuple[str, str, str]:
    """In a process of its own: the application's platform, font and family drawn in."""
    drawn = QFontMetricsF(QFont()).horizontalAdvance("Ada Lovelace")
    return QGuiApplication.platformName(), QGuiApplication.font().toString(), f"{drawn:.2f}"


def test_a_list_painted_in_a_process_of_its_own_is_drawn_off_screen_in_the_windows_font(qapp):
    font = QFont(QGuiApplication.font())
    font.setFamily("DejaVu Serif" if "DejaVu Serif" in QFontDatabase.families() else "Serif")
    font.setPointSizeF(13.5)
    job = phone_list.OffscreenPainting(application_here, font.toString())
    platform, there, drawn = run_in_process(job, stop=threading.Event(), painted=print)
    assert platform == "offscreen"
    assert there == font.toString()
    assert drawn == f"{QFontMetricsF(font).horizontalAdvance('Ada Lovelace'):.2f}"


def test_painted_where_an_application_is_the_list_keeps_its_font(qapp):
    before = QGuiApplication.font().toString()
    job = phone_list.OffscreenPainting(lambda **_job: 7, "Serif,30,-1,5,700,0,0,0,0,0,0,0,0,0,0,1")
    assert job(stop=threading.Event(), painted=print) == 7
    assert QGuiApplication.font().toString() == before


def test_a_list_stopped_in_its_process_is_told_whether_the_printer_took_it_back():
    for withdrawn in (False, True):
        again = pickle.loads(pickle.dumps(PhoneListStopped(withdrawn=withdrawn)))
        assert isinstance(again, PhoneListStopped)
        assert again.withdrawn is withdrawn


def test_an_application_already_there_is_used(qapp):
    phone_list.ensure_application()
    assert QGuiApplication.instance() is qapp
