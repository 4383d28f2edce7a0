"""The printed phone list, read back from the PDF as a text extractor reads it."""

from __future__ import annotations

import functools
import threading
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pypdf
import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontMetricsF

from cardviewer.api.models import Card, parse_card
from cardviewer.services.phone_list import (
    MAX_EMAILS,
    PhoneListStopped,
    PhoneListTexts,
    write_phone_list_pdf,
)
from tests.demo_cards import demo_space_cards

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
    many = [f"person{n}@example.com" for n in range(MAX_EMAILS + 2)]
    card = parse_card({"uuid": "many", "display_name": "Many Mails", "emails": many})
    target = tmp_path / "many.pdf"
    write_phone_list_pdf(target, [card], TEXTS)
    (page,) = pages_of(target)
    assert all(address in page for address in many[:MAX_EMAILS])
    assert many[MAX_EMAILS] not in page
    assert "+2 more" in page


def test_an_empty_list_is_one_page_with_its_heading(qapp, tmp_path):
    target = tmp_path / "none.pdf"
    assert write_phone_list_pdf(target, [], TEXTS) == 0
    assert pages_of(target) == ["Acme Europe GmbH — phone list 27 November 2026 Page 1"]


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
