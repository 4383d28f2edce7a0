"""Avatar images: what they look like, and that each is encoded only once.

Pillow (a test tool only) decodes them, so the JPEGs and PNGs Qt writes are checked by
another library than the one that made them.
"""

from __future__ import annotations

import io
import os
import string
import subprocess
import sys

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont
from PySide6.QtGui import QColor

from cardviewer.demo import avatars
from cardviewer.demo.data import initials_of
from cardviewer.ui.colour_scheme import TEXT_CONTRAST, contrast


def decode(body: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(body))
    image.load()
    return image


def test_initials_avatar_is_a_square_jpeg_in_the_chosen_colour():
    image = decode(avatars.initials_jpeg("AS", "abcdefghijklmno"))
    assert (image.format, image.size, image.mode) == ("JPEG", (256, 256), "RGB")
    corner = image.getpixel((5, 5))
    assert isinstance(corner, tuple)
    expected = avatars.colour_for("abcdefghijklmno")
    assert all(abs(a - b) < 12 for a, b in zip(corner, expected, strict=True))
    centre = image.crop((64, 64, 192, 192)).convert("L")
    assert max(centre.tobytes()) > 240  # white letters are drawn


def test_large_avatars_have_their_own_size():
    assert decode(avatars.initials_jpeg("AS", "abc", avatars.LARGE_AVATAR_SIZE)).size == (512, 512)


def test_encoded_images_are_cached():
    assert avatars.initials_jpeg("ZZ", "cached") is avatars.initials_jpeg("ZZ", "cached")
    assert avatars.default_png() is avatars.default_png()


def test_colours_are_stable_and_varied():
    assert avatars.colour_for("x") == avatars.colour_for("x")
    assert avatars.colour_for("x") in avatars.PALETTE
    assert len({avatars.colour_for(str(n)) for n in range(200)}) == len(avatars.PALETTE)


def test_default_is_a_grey_png():
    image = decode(avatars.default_png())
    assert (image.format, image.size) == ("PNG", (256, 256))
    rgb = image.convert("RGB")
    for point in ((0, 0), (128, 100), (128, 250)):
        pixel = rgb.getpixel(point)
        assert isinstance(pixel, tuple)
        assert len(set(pixel)) == 1


def test_broken_jpeg_starts_like_one_but_is_not():
    assert avatars.BROKEN_JPEG.startswith(b"\xff\xd8\xff")
    with pytest.raises(OSError):  # noqa: PT011 (Pillow raises plain OSError)
        decode(avatars.BROKEN_JPEG)


def test_etag_is_quoted_and_follows_the_content():
    tag = avatars.etag(b"one")
    assert tag.startswith('"')
    assert tag.endswith('"')
    assert tag == avatars.etag(b"one")
    assert tag != avatars.etag(b"two")


def pillow_initials(initials: str, key: str, size: int) -> Image.Image:
    """The initials as the demo drew them with Pillow: its built-in font (Aileron
    Regular) at 0.42 of the side, centred on the middle of ascender and descender."""
    image = Image.new("RGB", (size, size), avatars.colour_for(key))
    font = ImageFont.load_default(size=int(size * avatars.INITIALS_SIZE))
    ImageDraw.Draw(image).text((size / 2, size / 2), initials, "white", font=font, anchor="mm")
    return image


def letters_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    return image.convert("L").point(lambda level: 255 if level > 200 else 0).getbbox()


@pytest.mark.parametrize("initials", ["AS", "MW", "JQ", "GR", "IL", "?"])
@pytest.mark.parametrize("size", [avatars.AVATAR_SIZE, avatars.LARGE_AVATAR_SIZE])
def test_initials_look_as_they_always_did(initials, size):
    drawn = decode(avatars.initials_jpeg(initials, "look", size)).convert("RGB")
    expected = pillow_initials(initials, "look", size)
    difference = ImageChops.difference(drawn, expected).convert("L")
    mean = sum(level * count for level, count in enumerate(difference.histogram())) / size**2
    assert mean < 2.5  # JPEG's noise and anti-aliasing, no letter out of place
    box, expected_box = letters_box(drawn), letters_box(expected)
    assert box is not None
    assert expected_box is not None
    assert all(abs(a - b) <= size // 128 for a, b in zip(box, expected_box, strict=True))


def test_every_initial_the_data_can_make_has_a_glyph():
    assert set(string.ascii_uppercase) | {avatars.MISSING} == set(avatars.GLYPHS)
    assert initials_of("Łukasz", "Ørsted") == "LO"
    assert initials_of("", "") == avatars.MISSING


def test_a_letter_without_a_glyph_is_drawn_as_a_question_mark():
    assert avatars.initials_jpeg("Ж", "k") == avatars.initials_jpeg("?", "k")


def run_python(script: str) -> subprocess.CompletedProcess[str]:
    """`script` run by a fresh interpreter, as a start begins; it must succeed."""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    return result


def test_avatars_need_no_qt_application_and_draw_in_any_thread():
    """As in `python -m cardviewer.demo`: no QGuiApplication, a server thread draws."""
    script = (
        "import threading\n"
        "from PySide6.QtCore import QCoreApplication\n"
        "from cardviewer.demo import avatars\n"
        "made = []\n"
        "def draw():\n"
        "    made.append(avatars.initials_jpeg('AS', 'k'))\n"
        "    made.append(avatars.default_png())\n"
        "thread = threading.Thread(target=draw)\n"
        "thread.start()\n"
        "thread.join()\n"
        "assert QCoreApplication.instance() is None\n"
        "print(made[0][:3].hex(), made[1][:8].hex())\n"
    )
    result = run_python(script)
    assert result.stdout.split() == ["ffd8ff", "89504e470d0a1a0a"]
    assert "QGuiApplication" not in result.stderr


def test_a_server_drawing_before_the_application_is_made_leaves_it_its_event_loop():
    """In a test run the demo server may draw avatars before any window exists."""
    script = (
        "import urllib.request\n"
        "from cardviewer.demo import DemoServer\n"
        "server = DemoServer(port=0, avatar_port=0).start()\n"
        "card = next(c for c in server.spaces[server.space_id].cards if c.avatar_uuid)\n"
        "picture = f'{server.avatar_base_url}/avatars/{card.avatar_uuid}.jpg'\n"
        "assert urllib.request.urlopen(picture).read()[:3] == bytes.fromhex('ffd8ff')\n"
        "from PySide6.QtCore import QCoreApplication, QTimer\n"
        "app = QCoreApplication([])\n"
        "assert app.eventDispatcher() is not None, 'no event loop for the application'\n"
        "QTimer.singleShot(0, app.quit)\n"
        "print(app.exec())\n"
        "server.stop()\n"
    )
    assert run_python(script).stdout.split() == ["0"]


@pytest.mark.parametrize("colour", avatars.PALETTE, ids=lambda c: QColor(*c).name())
def test_white_initials_read_well_on_every_colour(colour: tuple[int, int, int]) -> None:
    assert contrast(QColor(255, 255, 255), QColor(*colour)) >= TEXT_CONTRAST


FIRST_PICTURES_AT_ONCE = """
import sys, threading
from cardviewer.demo import avatars

avatars.claim_qt_main_thread()
start = threading.Barrier(16)
drawn = []

def draw(number):
    start.wait()
    picture = avatars.initials_jpeg("AB", f"key-{number}", 64 + number)
    drawn.append(picture.startswith(b"\\xff\\xd8\\xff"))
    drawn.append(avatars.default_png(20 + number % 4).startswith(b"\\x89PNG"))

threads = [threading.Thread(target=draw, args=(n,)) for n in range(16)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
sys.exit(0 if len(drawn) == 32 and all(drawn) else 1)
"""


def test_the_first_pictures_drawn_by_many_server_threads_at_once_are_all_drawn():
    """Qt's Python types are made on first use, and two threads making one crashed the server."""
    for _ in range(3):  # a fresh process each time: only the first pictures can race
        done = subprocess.run(
            [sys.executable, "-c", FIRST_PICTURES_AT_ONCE],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
        assert done.returncode == 0, done.stderr[-2000:]
