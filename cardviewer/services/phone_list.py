"""A phone list to print: name, position and e-mails of each card, page after page.

On request each row starts with the card's picture, round, and ends with its QR code.

The same painting serves a PDF file (`write_phone_list_pdf`) and a printer: anything
Qt paints pages on (`QPagedPaintDevice`). Qt lays the text out, so names in Chinese,
Arabic or Hebrew come out in a font that has their letters and in their own direction,
as on screen. Cards are painted as they come and each full page is handed to the
device, so a space of 100,000 cards is never held whole, neither as cards nor as pages;
pictures are asked for a batch of cards at a time (`PhotoLookup`, e.g. a
`vcard_photos.PhotoSource` through `blocking_lookup`) and let go once those are painted.

A whole space's list is painted in a process of its own (`OffscreenPainting`, through
`process_job`): painting is Python for every row, and on a thread of the window's
process it would make the window's every paint wait.
"""

from __future__ import annotations

import asyncio
import errno
import itertools
import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QFile, QIODevice, QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QImage,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPainterPath,
    QPdfWriter,
    QPen,
)

from cardviewer.api.models import Card, CardPage, parse_card
from cardviewer.services.atomic_file import open_atomically
from cardviewer.services.card_qr import BORDER, card_qr, dark_modules
from cardviewer.services.file_errors import in_temporary_folder
from cardviewer.services.jsonl_export import page_lines
from cardviewer.services.space_fetch import (
    DEFAULT_CONCURRENCY,
    PageFetch,
    ProgressCallback,
    fetch_pages_in_order,
)
from cardviewer.services.stoppable import PROGRESS_EVERY, Painted, Stopped
from cardviewer.services.vcard_export import (
    PHOTO_BATCH,
    PhotoLookup,
    avatar_address,
    in_batches,
    space_name,
)
from cardviewer.services.vcard_photo import photo_jpeg

T = TypeVar("T")

SUFFIX = ".pdf"
MARGIN_MM = 15.0
RESOLUTION = 300
"""Dots per inch of the PDF's coordinates; the text itself stays vector."""
NAME_SHARE = 0.55
"""The part of a row's width for the name and position; the e-mails take the rest."""
MAX_EMAILS = 4
"""E-mail addresses printed per card; more are counted ("+2 more")."""
QR_MM = 24.0
"""The side of a card's QR code on paper, its quiet zone included: a phone reads it."""
QR_PIXELS = 4
"""Pixels a module of the QR code's picture in the PDF."""
ADDRESS_LINES = 4
"""Lines an e-mail address takes at most (a real one takes one or two)."""
NAME_LINES = 3
"""Lines a name or a position takes at most; a longer one is cut with "…"."""
PICTURE_MM = 13.0
"""The diameter of a card's picture on paper: a face one knows again, a row not much taller."""
PICTURE_PIXELS = 160
"""A picture's width and height in pixels: about 300 dots an inch at `PICTURE_MM`."""
NO_PICTURE = QColor(228, 228, 228)
"""The disc in a picture's place when the card has none, or it could not be had."""
INITIALS = QColor(105, 105, 105)
"""The initials on that disc."""


@dataclass(frozen=True)
class PhoneListTexts:
    """The words on every page, in the reader's language."""

    title: str
    """The header's left: which space, e.g. "Acme Europe GmbH — phone list"."""
    date: str
    """The header's right: when it was printed."""
    page: str
    """The footer, with %1 for the page's number."""
    more_emails: str
    """Below the e-mails shown, with %1 for how many more there are."""
    no_name: str
    """For a card without a name."""


class PagesRefused(OSError):
    """The printer or the file did not take the pages (a printer gone, a file not written)."""


class PhoneListStopped(Stopped):
    """The list was called off before the last card (`stop` was set)."""

    def __init__(self, *, withdrawn: bool = False) -> None:
        super().__init__("the phone list was called off")
        self.withdrawn = withdrawn
        """A printer's job was withdrawn, so no page of it comes out."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent back from a painting's process as it was raised there."""
        return partial(PhoneListStopped, withdrawn=self.withdrawn), ()


def write_phone_list(
    device: QPagedPaintDevice,
    cards: Iterable[Card],
    texts: PhoneListTexts,
    *,
    stop: threading.Event | None = None,
    qr_codes: bool = False,
    pictures: PhotoLookup | None = None,
    painted: Painted | None = None,
) -> int:
    """Paint the cards on `device`, as many rows a page as fit; returns how many cards.

    `stop`, when set, ends the painting after the row being painted
    (`PhoneListStopped`): a printer's job is withdrawn where the system allows it
    (`withdrawn`), else the device gets what was painted so far as pages (a PDF file
    is then dropped by its writer). `qr_codes`:
    each card's QR code (its contact) at the end of its row. `pictures`: each card's
    picture at the start of its row, asked of it `PHOTO_BATCH` cards at a time (JPEGs by
    avatar address, as `picture_jpeg` makes them); a card it has no picture for gets
    its initials on a grey disc. `painted` hears the count every `PROGRESS_EVERY` cards
    and at the end, on the painting thread.
    """
    painter = QPainter()
    if not painter.begin(device):
        raise PagesRefused("the printer or the file did not take the pages")
    try:
        lister = _PhoneListPainter(painter, device, texts, qr_codes=qr_codes, pictures=pictures)
        return lister.paint(cards, stop, painted)
    except PhoneListStopped:
        # A printer's job is withdrawn before its pages are sent, where the system lets
        # it (`QPrinter.abort`; on Linux, CUPS gets the pages painted so far).
        abort = getattr(device, "abort", None)
        if abort is None:
            raise
        raise PhoneListStopped(withdrawn=bool(abort())) from None
    finally:
        painter.end()


def write_phone_list_pdf(
    path: Path,
    cards: Iterable[Card],
    texts: PhoneListTexts,
    *,
    stop: threading.Event | None = None,
    qr_codes: bool = False,
    pictures: PhotoLookup | None = None,
    painted: Painted | None = None,
) -> int:
    """The phone list as an A4 PDF at `path`, written whole or not at all."""
    with open_atomically(path) as file:
        device = QFile()
        if not device.open(file.fileno(), QIODevice.OpenModeFlag.WriteOnly):
            raise OSError(f"{path} cannot be written: {device.errorString()}")
        writer = QPdfWriter(device)
        writer.setTitle(texts.title)
        writer.setCreator("CardViewer")
        writer.setResolution(RESOLUTION)
        writer.setPageLayout(
            QPageLayout(
                QPageSize(QPageSize.PageSizeId.A4),
                QPageLayout.Orientation.Portrait,
                QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                QPageLayout.Unit.Millimeter,
            )
        )
        count = write_phone_list(
            writer, cards, texts, stop=stop, qr_codes=qr_codes, pictures=pictures, painted=painted
        )
        del writer  # writes the PDF's last parts
        meant = device.pos()
        device.close()
        written = os.fstat(file.fileno()).st_size
        if written != meant:  # a short write, which QFile tells no one: the disk filled
            raise OSError(errno.ENOSPC, f"{written:,} of the PDF's {meant:,} bytes written")
    return count


def titled(
    texts: PhoneListTexts, cards: Iterable[Card], space_id: str
) -> tuple[PhoneListTexts, Iterable[Card]]:
    """`texts` with %1 of the title the space's name, as the first card carries it (else
    `space_id`), and the same cards to paint."""
    taken = iter(cards)
    first = next(taken, None)
    name = (space_name(first) if first is not None else None) or space_id
    rest = itertools.chain([first], taken) if first is not None else taken
    return replace(texts, title=texts.title.replace("%1", name)), rest


def ensure_application() -> None:
    """A Qt application for fonts and text layout, where a program without a window
    (`cardviewer export`) has none: drawing off screen where there is no display."""
    if QGuiApplication.instance() is not None:
        return
    no_display = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if no_display:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    global _APPLICATION
    _APPLICATION = QGuiApplication(["cardviewer"])


_APPLICATION: QGuiApplication | None = None


@dataclass(frozen=True)
class OffscreenPainting(Generic[T]):
    """A phone list's painting as a job for a process of its own (`process_job`).

    There, a Qt application is made first, drawing off screen in the window's font, so
    that the pages come out as they would from the window's process. Called where an
    application already is (no process could be started), it only paints.
    """

    paint: Callable[..., T]
    """Paints the list (its count of cards); called with the job's arguments."""
    font: str
    """The window's font (`QFont.toString`): the list's text is in its family."""

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        if QGuiApplication.instance() is None:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # never a window, whatever the display
            ensure_application()
            font = QFont()
            font.fromString(self.font)
            QGuiApplication.setFont(font)
        return self.paint(*args, **kwargs)


async def export_space_phone_list(
    fetch: PageFetch,
    path: Path,
    texts: PhoneListTexts,
    space_id: str,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_progress: ProgressCallback | None = None,
    qr_codes: bool = False,
    pictures: PhotoLookup | None = None,
) -> int:
    """Fetch every page through `fetch` and paint all its cards as a PDF at `path`.

    The cards wait in an unnamed temporary file (readable by this user only) until
    every page is in, as the server sent them, one a line: a failed fetch writes nothing,
    and the space is never whole in memory. Call `ensure_application()` first, on the
    main thread. `pictures` is asked from the painting's thread (`blocking_lookup`).
    """
    with in_temporary_folder():
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed as the block ends
    with spool:

        def keep(page: CardPage) -> None:
            with in_temporary_folder():
                spool.writelines(page_lines(page))

        await fetch_pages_in_order(fetch, keep, concurrency=concurrency, on_progress=on_progress)
        with in_temporary_folder():
            spool.flush()
            spool.seek(0)
        kept = (parse_card(json.loads(line)) for line in spool)
        named, cards = titled(texts, kept, space_id)
        write = partial(write_phone_list_pdf, qr_codes=qr_codes, pictures=pictures)
        return await asyncio.to_thread(write, path, cards, named)


def picture_jpeg(data: bytes) -> bytes:
    """A card's picture as the list prints it: a `PICTURE_PIXELS` square JPEG, read by
    the avatars' rules (`vcard_photo.photo_jpeg`). Raises `AvatarRejected`."""
    return photo_jpeg(data, side=PICTURE_PIXELS, quality=85)


def initials(name: str) -> str:
    """The first letters of the first and last word of `name`, capitals: "Ada Lovelace"
    is "AL", "王芳" is "王"; "" for a name without letters."""
    words = [word for word in name.split() if any(char.isalnum() for char in word)]
    firsts = [next(char for char in word if char.isalnum()) for word in words]
    return "".join(firsts[:1] + firsts[1:][-1:]).upper()


Measure = Callable[[str], float]
"""How wide a text is drawn (a font's `horizontalAdvance`)."""


def wrapped_words(text: str, width: float, measure: Measure) -> list[str]:
    """`text` in lines no wider than `width`, broken between words; a word wider than
    `width` stands on a line of its own (it is cut when drawn). Line breaks in `text`
    stay."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if not current or measure(candidate) <= width:
                current = candidate
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


def broken_address(address: str, width: float, measure: Measure) -> list[str]:
    """An e-mail address in lines no wider than `width`, never cut short: a phone list is
    for reaching people. A line ends after "@", "." or "-" where that keeps it at least
    half full, else where the width ends; each line holds a character at least."""
    lines: list[str] = []
    rest = address
    while len(rest) > 1 and measure(rest) > width:
        fits = 1
        while fits < len(rest) and measure(rest[: fits + 1]) <= width:
            fits += 1
        nice = max(rest.rfind(mark, 0, fits) for mark in "@.-") + 1
        cut = nice if nice > fits // 2 else fits
        lines.append(rest[:cut])
        rest = rest[cut:]
    return [*lines, rest]


def qr_image(modules: list[list[bool]], scale: int) -> QImage:
    """A QR code's modules (`card_qr.dark_modules`) with its border as a black-on-white
    image, `scale` pixels a module: for the page and for the window's details pane.

    Always black on white, whatever the colour scheme: readers expect dark modules on
    a light ground.
    """
    size = (len(modules) + 2 * BORDER) * scale
    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(QColor(255, 255, 255))
    painter = QPainter(image)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                left, top = (x + BORDER) * scale, (y + BORDER) * scale
                painter.fillRect(left, top, scale, scale, QColor(0, 0, 0))
    painter.end()
    return image


class _PhoneListPainter:
    """Paints rows of cards down a page, a header over them and the page's number under."""

    def __init__(
        self,
        painter: QPainter,
        device: QPagedPaintDevice,
        texts: PhoneListTexts,
        *,
        qr_codes: bool = False,
        pictures: PhotoLookup | None = None,
    ):
        self._painter, self._device, self._texts = painter, device, texts
        self._qr_side = device.logicalDpiX() * QR_MM / 25.4 if qr_codes else 0.0
        self._pictures = pictures
        self._picture_side = device.logicalDpiX() * PICTURE_MM / 25.4 if pictures else 0.0
        layout = device.pageLayout()
        dpi = device.logicalDpiY()
        rect = layout.paintRect(QPageLayout.Unit.Point)
        points = dpi / 72
        self._page = QRectF(0, 0, rect.width() * points, rect.height() * points)
        base = QFont()
        base.setPointSizeF(9.5)
        self._text_font = QFont(base)
        self._name_font = QFont(base)
        self._name_font.setBold(True)
        self._small_font = QFont(base)
        self._small_font.setPointSizeF(8)
        self._metrics = {
            id(font): QFontMetricsF(font, device)
            for font in (self._text_font, self._name_font, self._small_font)
        }
        self._gap = self._line(self._text_font) * 0.45
        self._initials_font = QFont(base)
        self._initials_font.setBold(True)
        self._initials_font.setPixelSize(max(1, round(self._picture_side * 0.36)))
        self._number = 0
        self._top = 0.0

    def _line(self, font: QFont) -> float:
        return self._metrics[id(font)].lineSpacing()

    def paint(
        self, cards: Iterable[Card], stop: threading.Event | None, painted: Painted | None
    ) -> int:
        count = 0
        self._start_page()
        # Without pictures a card at a time: each is read only when its row is painted.
        for batch in in_batches(cards, PHOTO_BATCH if self._pictures is not None else 1):
            self._check(stop)
            found = self._pictures(batch) if self._pictures is not None else {}
            for card in batch:
                self._check(stop)
                self._row(card, found)
                count += 1
                if painted is not None and count % PROGRESS_EVERY == 0:
                    painted(count)
        self._end_page()
        if painted is not None:
            painted(count)
        return count

    def _check(self, stop: threading.Event | None) -> None:
        if stop is not None and stop.is_set():
            self._end_page()
            raise PhoneListStopped

    # Pages

    def _header_height(self) -> float:
        return self._line(self._name_font) + self._gap * 2

    def _footer_height(self) -> float:
        return self._line(self._small_font) + self._gap

    def _start_page(self) -> None:
        self._number += 1
        painter, page = self._painter, self._page
        line = self._line(self._name_font)
        header = QRectF(page.left(), page.top(), page.width(), line)
        painter.setFont(self._name_font)
        painter.setPen(QColor(0, 0, 0))
        title = self._elided(self._texts.title, self._name_font, page.width() * 0.7)
        painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        painter.setFont(self._small_font)
        painter.setPen(QColor(90, 90, 90))
        painter.drawText(
            header, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, self._texts.date
        )
        self._rule(page.top() + line + self._gap)
        self._top = page.top() + self._header_height()

    def _end_page(self) -> None:
        painter, page = self._painter, self._page
        painter.setFont(self._small_font)
        painter.setPen(QColor(90, 90, 90))
        footer = QRectF(
            page.left(),
            page.bottom() - self._line(self._small_font),
            page.width(),
            self._line(self._small_font),
        )
        text = self._texts.page.replace("%1", str(self._number))
        painter.drawText(
            footer, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter, text
        )

    def _next_page(self) -> None:
        self._end_page()
        if not self._device.newPage():
            raise PagesRefused("no new page could be started (the disk may be full)")
        self._start_page()

    def _rule(self, y: float) -> None:
        pen = QPen(QColor(200, 200, 200))
        pen.setWidthF(max(1.0, self._device.logicalDpiY() / 300))
        self._painter.setPen(pen)
        self._painter.drawLine(int(self._page.left()), int(y), int(self._page.right()), int(y))

    # Rows

    def _row(self, card: Card, pictures: Mapping[str, bytes]) -> None:
        page = self._page
        # The picture first, then the two columns in what is left of the width.
        text_left = page.left() + (self._picture_side + 2 * self._gap if self._pictures else 0.0)
        text_width = page.right() - text_left
        left_width = text_width * NAME_SHARE - self._gap
        right_left = text_left + text_width * NAME_SHARE
        qr_room = self._qr_side + self._gap if self._qr_side else 0.0
        right_width = page.right() - right_left - qr_room
        name = card.display_name or self._texts.no_name
        name_lines = self._wrapped(name, self._name_font, left_width)
        position_lines = (
            self._wrapped(card.position, self._text_font, left_width) if card.position else []
        )
        emails = list(card.emails or [])
        shown = emails[:MAX_EMAILS]
        email_lines = [line for address in shown for line in self._broken(address, right_width)]
        if len(emails) > MAX_EMAILS:
            email_lines.append(self._texts.more_emails.replace("%1", str(len(emails) - MAX_EMAILS)))
        left_height = self._line(self._name_font) * len(name_lines) + self._line(
            self._text_font
        ) * len(position_lines)
        height = (
            max(
                left_height,
                self._line(self._text_font) * len(email_lines),
                self._qr_side,
                self._picture_side,
            )
            + self._gap * 2
        )
        if self._top + height > page.bottom() - self._footer_height() and not self._page_is_empty():
            self._next_page()
        top = self._top + self._gap
        painter = self._painter
        painter.setPen(QColor(0, 0, 0))
        y = top
        for text, font in [*((n, self._name_font) for n in name_lines)] + [
            (p, self._text_font) for p in position_lines
        ]:
            if font is self._text_font:
                painter.setPen(QColor(70, 70, 70))
            painter.setFont(font)
            line = self._line(font)
            painter.drawText(
                QRectF(text_left, y, left_width, line),
                Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
            y += line
        painter.setPen(QColor(0, 0, 0))
        painter.setFont(self._text_font)
        y = top
        for text in email_lines:
            line = self._line(self._text_font)
            painter.drawText(
                QRectF(right_left, y, right_width, line),
                Qt.AlignmentFlag.AlignLeading | Qt.AlignmentFlag.AlignVCenter,
                text,
            )
            y += line
        if self._qr_side:
            self._qr(card, QRectF(page.right() - self._qr_side, top, self._qr_side, self._qr_side))
        if self._pictures is not None:
            address = avatar_address(card)
            side = self._picture_side
            place = QRectF(page.left(), top, side, side)
            self._picture(pictures.get(address) if address else None, name, place)
        self._top += height
        self._rule(self._top)

    def _qr(self, card: Card, place: QRectF) -> None:
        """The card's QR code in `place`, its quiet zone included, a few pixels a module."""
        qr = card_qr(card)
        if qr is None:
            return  # too long a contact for a QR code: the row goes without
        image = qr_image(dark_modules(qr), QR_PIXELS)
        self._painter.drawImage(place, image)

    def _picture(self, jpeg: bytes | None, name: str, place: QRectF) -> None:
        """The card's picture as a disc in `place`; without one, its initials on grey."""
        painter = self._painter
        image = QImage.fromData(jpeg) if jpeg else QImage()
        disc = QPainterPath()
        disc.addEllipse(place)
        painter.save()
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            if not image.isNull():
                painter.setClipPath(disc)
                painter.drawImage(place, image)
                return
            painter.fillPath(disc, NO_PICTURE)
            letters = initials(name) if name != self._texts.no_name else ""
            if letters:
                # Outlines, not text: a reader copying the list gets names, not initials.
                shape = QPainterPath()
                shape.addText(QPointF(0, 0), self._initials_font, letters)
                drawn = shape.boundingRect()
                shape.translate(place.center() - drawn.center())
                painter.fillPath(shape, INITIALS)
        finally:
            painter.restore()

    def _page_is_empty(self) -> bool:
        return self._top <= self._page.top() + self._header_height()

    def _wrapped(self, text: str, font: QFont, width: float) -> list[str]:
        """`text` in at most `NAME_LINES` lines of `width`, the last cut with "…"."""
        lines = wrapped_words(text, width, self._metrics[id(font)].horizontalAdvance)
        kept = lines[:NAME_LINES]
        if len(lines) > NAME_LINES:  # more follows: said by "…" at the end of the last
            kept[-1] += "\N{HORIZONTAL ELLIPSIS}"
        return [self._elided(line, font, width) for line in kept]

    def _broken(self, address: str, width: float) -> list[str]:
        """`address` on at most `ADDRESS_LINES` lines; one longer than any real address is
        cut with "…" rather than run off the page."""
        lines = broken_address(address, width, self._metrics[id(self._text_font)].horizontalAdvance)
        if len(lines) <= ADDRESS_LINES:
            return lines
        kept = lines[:ADDRESS_LINES]
        kept[-1] = self._elided(kept[-1] + "\N{HORIZONTAL ELLIPSIS}", self._text_font, width)
        return kept

    def _elided(self, text: str, font: QFont, width: float) -> str:
        return self._metrics[id(font)].elidedText(text, Qt.TextElideMode.ElideRight, width)
