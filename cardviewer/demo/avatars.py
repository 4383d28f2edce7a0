"""Avatar images drawn with Qt: initials on a colour, a default silhouette, and oddities.

Only Qt's image classes draw them (QImage, QPainter, QImageWriter), which need no
application object, no window system and no installed font, and may run in any thread:
the server's threads draw the same pictures in `python -m cardviewer.demo`, inside the
app with `--demo`, in the tests and in the double-click app. Qt is imported when the
first image is drawn, so importing the demo still loads no Qt (tests/test_layers.py
names this module as the demo's one user of Qt). The letters are outlines kept here
(`GLYPHS`), so they look the same on every machine.

Encoding is the slow part, so every image is encoded once and its bytes are cached.
Qt takes the first thread that touches it for its main thread: the server claims it
for the thread that starts it (`claim_qt_main_thread`) before its threads draw. One
picture is drawn at a time (`_drawing`): PySide makes its Python types and enums on
first use, and two server threads making the same one at once crashed the server.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QImage, QPainterPath

AVATAR_SIZE = 256
LARGE_AVATAR_SIZE = 512
HUGE_SIZE = 4000

# Calm, saturated colours on which white initials read well: each gives white text a
# contrast of 4.5:1 or more (WCAG AA), as the app's own colours do.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (0x15, 0x65, 0xC0),
    (0x2E, 0x7D, 0x32),
    (0xC6, 0x28, 0x28),
    (0x7B, 0x1F, 0xA2),
    (0xBF, 0x36, 0x0C),
    (0x00, 0x69, 0x5C),
    (0x30, 0x3F, 0x9F),
    (0xAD, 0x14, 0x57),
    (0x6D, 0x4C, 0x41),
    (0x54, 0x6E, 0x7A),
    (0x00, 0x60, 0x64),
    (0x33, 0x69, 0x1E),
)

# Starts like a JPEG, so it passes a sniff of the first bytes, then is not one.
BROKEN_JPEG = b"\xff\xd8\xff\xe0" + b"upload interrupted: this is not image data\n" * 16

INITIALS_SIZE = 0.42
"""Height of the letters' em square, as a share of the picture's side."""
UNITS_PER_EM = 1000
MIDDLE = (970 - 230) / 2
"""Halfway between the font's ascender and descender, in font units above the baseline:
the line through the picture's centre, as the letters have always been placed."""
MISSING = "?"

# The outlines of the capitals and "?" of Aileron Regular by Sora Sagano (dotcolon.net,
# released with no rights reserved), the sans serif the demo's initials were always set
# in: per character its advance width and its contours in font units (1000 to the em,
# y up), as SVG path data with M, L, Q (TrueType's quadratic curves) and Z. Initials are
# two ASCII capitals (`data.initials_of`); anything else is drawn as "?".
GLYPHS: dict[str, tuple[int, str]] = {
    "A": (639, "M456 244L202 244L121 0L29 0L277 690L393 690L631 0L538 0ZM226 314L433 314L333 622Z"),
    "B": (
        627,
        "M446 367Q517 351 552.5 311.5Q588 272 588 203Q588 115 537 66Q486 17 410 5Q376 0 322 0"
        "L100 0L100 690L303 690Q360 690 393 686Q563 663 563 518Q563 407 446 367ZM186 620"
        "L186 393L319 393Q347 393 374 397Q471 412 471 511Q471 606 365 618Q347 620 310 620Z"
        "M383 72Q434 77 465 108Q496 139 496 194Q496 304 384 319Q353 323 329 323L186 323"
        "L186 70L335 70Q357 70 383 72Z",
    ),
    "C": (
        699,
        "M373 704Q500 704 571.5 640Q643 576 654 470L655 460L569 460L567 470Q533 636 371 636"
        "Q267 636 205 554.5Q143 473 143 346Q143 217 203.5 135.5Q264 54 365 54Q527 54 561 220"
        "L563 230L649 230L648 220Q638 119 563.5 52.5Q489 -14 360 -14Q213 -14 130 86"
        "Q47 186 47 342Q47 501 137 602.5Q227 704 373 704Z",
    ),
    "D": (
        709,
        "M398 686Q523 670 597 586Q671 502 671 353Q671 205 594 112Q517 19 393 4Q358 0 305 0"
        "L100 0L100 690L310 690Q363 690 398 686ZM384 75Q474 90 525.5 161.5Q577 233 577 353"
        "Q577 466 527.5 533.5Q478 601 389 615Q362 620 305 620L186 620L186 70L300 70"
        "Q356 70 384 75Z",
    ),
    "E": (
        587,
        "M559 70L559 0L100 0L100 690L549 690L549 620L186 620L186 380L519 380L519 310L186 310"
        "L186 70Z",
    ),
    "F": (567, "M186 620L186 380L509 380L509 310L186 310L186 0L100 0L100 690L549 690L549 620Z"),
    "G": (
        710,
        "M399 333L646 333L646 0L570 0L570 120L539 56Q477 -14 360 -14Q213 -14 130 86"
        "Q47 186 47 342Q47 501 137 602.5Q227 704 373 704Q500 704 571.5 640Q643 576 654 470"
        "L655 460L569 460L567 470Q533 636 371 636Q267 636 205 554.5Q143 473 143 346"
        "Q143 217 203.5 135.5Q264 54 365 54Q449 54 504.5 112.5Q560 171 560 263L399 263Z",
    ),
    "H": (
        730,
        "M652 690L652 0L566 0L566 302L186 302L186 0L100 0L100 690L186 690L186 374L566 374L566 690Z",
    ),
    "I": (264, "M186 0L100 0L100 690L186 690Z"),
    "J": (
        544,
        "M488 690L488 264Q488 215 486 181Q481 90 425 38Q369 -14 263 -14Q167 -14 112.5 41.5"
        "Q58 97 56 194L55 235L141 235L143 194Q150 54 275 54Q391 54 401 186Q402 206 402 267"
        "L402 690Z",
    ),
    "K": (
        609,
        "M315 353L610 0L489 0L252 295L186 224L186 0L100 0L100 690L186 690L186 323L527 690L628 690Z",
    ),
    "L": (575, "M559 70L559 0L100 0L100 690L186 690L186 70Z"),
    "M": (
        866,
        "M788 690L788 0L702 0L702 355Q702 537 704 612Q669 498 620 356L498 0L390 0L266 358"
        "Q211 518 184 610Q186 535 186 355L186 0L100 0L100 690L242 690L446 73L649 690Z",
    ),
    "N": (
        718,
        "M640 0L508 0L183 606Q186 484 186 345L186 0L100 0L100 690L232 690L557 84"
        "Q554 205 554 345L554 690L638 690Z",
    ),
    "O": (
        737,
        "M373 704Q527 704 613 605.5Q699 507 699 345Q699 184 613 85Q527 -14 373 -14"
        "Q219 -14 133 85Q47 184 47 345Q47 507 133 605.5Q219 704 373 704ZM373 54"
        "Q481 54 542 132Q603 210 603 345Q603 481 542 558.5Q481 636 373 636Q265 636 204 558.5"
        "Q143 481 143 345Q143 210 204 132Q265 54 373 54Z",
    ),
    "P": (
        598,
        "M404 686Q488 675 535.5 623.5Q583 572 583 486Q583 401 532.5 348.5Q482 296 404 286"
        "Q373 282 314 282L186 282L186 0L100 0L100 690L314 690Q373 690 404 686ZM399 359"
        "Q491 380 491 486Q491 592 399 613Q375 618 322 618L186 618L186 354L322 354"
        "Q375 354 399 359Z",
    ),
    "Q": (
        733,
        "M573 72Q634 63 701 7L652 -52Q572 2 517 2Q486 2 444 -7Q413 -14 373 -14Q219 -14 133 85"
        "Q47 184 47 345Q47 507 133 605.5Q219 704 373 704Q527 704 613 605.5Q699 507 699 345"
        "Q699 164 573 72ZM143 345Q143 210 204 132Q265 54 373 54Q481 54 542 132"
        "Q603 210 603 345Q603 481 542 558.5Q481 636 373 636Q265 636 204 558.5Q143 481 143 345"
        "Z",
    ),
    "R": (
        619,
        "M554 181Q566 45 600 0L505 0Q480 57 468 173Q455 289 365 296Q349 297 316 297L186 297"
        "L186 0L100 0L100 690L326 690Q385 690 416 686Q496 676 542 630.5Q588 585 588 502"
        "Q588 438 553 397Q518 356 465 339Q543 303 554 181ZM186 367L318 367Q366 367 385 369"
        "Q435 374 465.5 406Q496 438 496 494Q496 600 395 616Q370 620 326 620L186 620Z",
    ),
    "S": (
        585,
        "M314 704Q417 704 476 648Q535 592 545 499L453 499Q447 565 409.5 600.5Q372 636 307 636"
        "Q249 636 212.5 609Q176 582 176 530Q176 475 209.5 446Q243 417 324 399"
        "Q441 372 496.5 321.5Q552 271 552 185Q552 96 484.5 41Q417 -14 315 -14Q201 -14 132 41"
        "Q63 96 52 196L144 196Q159 128 204 91Q249 54 317 54Q378 54 419 85Q460 116 460 169"
        "Q460 231 421.5 264.5Q383 298 291 319Q191 342 137.5 386Q84 430 84 510"
        "Q84 597 150 650.5Q216 704 314 704Z",
    ),
    "T": (612, "M612 620L366 620L366 0L280 0L280 620L34 620L34 690L612 690Z"),
    "U": (
        682,
        "M612 690L612 255Q612 213 610 193Q602 101 537.5 43.5Q473 -14 353 -14"
        "Q233 -14 168.5 43.5Q104 101 96 193Q94 213 94 255L94 690L180 690L180 263"
        "Q180 220 182 202Q188 134 232 94Q276 54 353 54Q430 54 474 94Q518 134 524 202"
        "Q526 220 526 263L526 690Z",
    ),
    "V": (622, "M386 0L270 0L32 690L125 690L330 65L542 690L634 690Z"),
    "W": (
        952,
        "M945 690L753 0L640 0L484 595L322 0L208 0L26 690L124 690L269 77L429 680L545 680"
        "L701 76L854 690Z",
    ),
    "X": (
        625,
        "M522 0L320 292L124 0L25 0L271 348L43 690L141 690L324 408L514 690L613 690L373 351L623 0Z",
    ),
    "Y": (581, "M349 272L349 0L263 0L263 272L19 690L118 690L310 355L496 690L593 690Z"),
    "Z": (591, "M569 70L569 0L46 0L46 66L463 620L74 620L74 690L563 690L563 621L148 70Z"),
    "?": (
        499,
        "M260 704Q358 704 413 652.5Q468 601 468 521Q468 422 363 317Q318 272 302 244.5"
        "Q286 217 284 180L198 180Q203 225 219.5 258.5Q236 292 278 340Q332 402 352 439.5"
        "Q372 477 372 521Q372 573 341 604.5Q310 636 257 636Q200 636 164.5 599.5"
        "Q129 563 125 494L35 494Q38 590 99.5 647Q161 704 260 704ZM241 114Q269 114 287 96"
        "Q305 78 305 50Q305 22 287 4Q269 -14 241 -14Q213 -14 195 4Q177 22 177 50"
        "Q177 78 195 96Q213 114 241 114Z",
    ),
}

_COMMAND = re.compile(r"([MLQZ])([^MLQZ]*)")
_drawing = threading.Lock()
"""Held while a picture is drawn and encoded (a few milliseconds, once per picture)."""


def claim_qt_main_thread() -> None:
    """Make the calling thread Qt's main thread, if Qt has none yet.

    Qt takes the first thread that touches it for its main thread, for good. Were that
    a server thread drawing a picture, an application object made later in the real
    main thread would have no event dispatcher: its timers would never fire. The
    server is started from the thread that runs (or will run) the application.
    """
    from PySide6.QtCore import QThread

    QThread.currentThread()


def colour_for(key: str) -> tuple[int, int, int]:
    """The same avatar id always gets the same colour, on every machine."""
    digest = hashlib.sha256(key.encode()).digest()
    return PALETTE[int.from_bytes(digest[:4], "big") % len(PALETTE)]


def _outline(letter: str, x: float, baseline: float, scale: float) -> QPainterPath:
    """The letter's contours with its origin at (x, baseline), `scale` pixels a font unit."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPainterPath

    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)  # TrueType's rule: non-zero winding
    for command, numbers in _COMMAND.findall(GLYPHS[letter][1]):
        values = [float(n) for n in numbers.split()]
        points = [
            (x + values[i] * scale, baseline - values[i + 1] * scale)
            for i in range(0, len(values), 2)
        ]
        if command == "M":
            path.moveTo(*points[0])
        elif command == "L":
            path.lineTo(*points[0])
        elif command == "Q":
            path.quadTo(*points[0], *points[1])
        else:
            path.closeSubpath()
    return path


def initials_path(initials: str, size: int) -> QPainterPath:
    """The initials' outline, centred on a square picture of `size` pixels."""
    from PySide6.QtGui import QPainterPath

    letters = [letter if letter in GLYPHS else MISSING for letter in initials]
    scale = size * INITIALS_SIZE / UNITS_PER_EM
    x = size / 2 - sum(GLYPHS[letter][0] for letter in letters) * scale / 2
    baseline = size / 2 + MIDDLE * scale
    path = QPainterPath()
    for letter in letters:
        path.addPath(_outline(letter, x, baseline, scale))
        x += GLYPHS[letter][0] * scale
    return path


def _encode(image: QImage, image_format: bytes, quality: int) -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QImageWriter

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QImageWriter(buffer, image_format)
    writer.setQuality(quality)
    if not writer.write(image):
        raise RuntimeError(f"Qt could not write a {image_format.decode()}: {writer.errorString()}")
    return bytes(buffer.data().data())


def _canvas(size: int, colour: tuple[int, int, int]) -> QImage:
    from PySide6.QtGui import QColor, QImage

    image = QImage(size, size, QImage.Format.Format_RGB32)
    image.fill(QColor(*colour))
    return image


@lru_cache(maxsize=4096)
def initials_jpeg(initials: str, key: str, size: int = AVATAR_SIZE) -> bytes:
    """A square JPEG with white initials centred on the colour chosen for `key`."""
    from PySide6.QtGui import QColor, QPainter

    with _drawing:
        image = _canvas(size, colour_for(key))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillPath(initials_path(initials, size), QColor(255, 255, 255))
        painter.end()
        return _encode(image, b"jpeg", 88)


@lru_cache(maxsize=4)
def default_png(size: int = AVATAR_SIZE) -> bytes:
    """A neutral grey head-and-shoulders silhouette, for cards without a picture."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QPainter

    with _drawing:
        image = _canvas(size, (0xE0, 0xE0, 0xE0))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0x9E, 0x9E, 0x9E))
        head = size * 0.19
        cx, cy = size / 2, size * 0.39
        painter.drawEllipse(QRectF(cx - head, cy - head, 2 * head, 2 * head))
        painter.drawEllipse(QRectF(size * 0.18, size * 0.66, size * 0.64, size * 0.64))
        painter.end()
        return _encode(image, b"png", 0)  # quality 0: the smallest PNG


GRAIN_TILE = 509
"""Side of the square of noise laid over the huge image, repeated; prime, so that its
repeats never line up with JPEG's 8 x 8 blocks."""
GRAIN_SIGMA = 10.0
"""The grain's strength: its standard deviation in levels of 255, as in a real photo."""

_huge_lock = threading.Lock()
_huge: bytes | None = None


def _grain() -> QImage:
    """Grey noise with a mean of zero: pixels of white or black at the noise's opacity."""
    from PySide6.QtGui import QImage

    rng = random.Random(4000)  # the same picture on every run
    pixels = bytearray()
    for _ in range(GRAIN_TILE * GRAIN_TILE):
        level = rng.gauss(0.0, GRAIN_SIGMA)
        alpha = min(255, round(abs(level) * 2))
        value = alpha if level > 0 else 0  # premultiplied white, or black
        pixels += bytes((value, value, value, alpha))
    tile = QImage(
        bytes(pixels),
        GRAIN_TILE,
        GRAIN_TILE,
        GRAIN_TILE * 4,
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    return tile.copy()  # owns its pixels once `pixels` is gone


def huge_jpeg() -> bytes:
    """A 4000 x 4000 photo-sized JPEG (a few MB), made on first use, to test memory and scaling."""
    global _huge
    with _huge_lock:
        if _huge is None:
            with _drawing:
                _huge = _encode(_huge_image(), b"jpeg", 80)
        return _huge


def _huge_image() -> QImage:
    """Red falls from top to bottom, blue from left to right, green grows from the
    centre; with grain, which compresses about as badly as a photo does."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QBrush, QColor, QLinearGradient, QPainter, QRadialGradient

    size = float(HUGE_SIZE)
    image = _canvas(HUGE_SIZE, (0, 0, 0))
    painter = QPainter(image)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Plus)
    black = QColor(0, 0, 0)
    for gradient, end in (
        (QLinearGradient(0, 0, 0, size), QColor(255, 0, 0)),
        (QLinearGradient(0, 0, size, 0), QColor(0, 0, 255)),
        (QRadialGradient(QPointF(size / 2, size / 2), size / 2), QColor(0, 255, 0)),
    ):
        gradient.setColorAt(0, black)
        gradient.setColorAt(1, end)
        painter.fillRect(QRectF(0, 0, size, size), QBrush(gradient))
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
    painter.fillRect(QRectF(0, 0, size, size), QBrush(_grain()))
    painter.end()
    return image


def etag(body: bytes) -> str:
    return '"' + hashlib.sha1(body, usedforsecurity=False).hexdigest()[:20] + '"'
