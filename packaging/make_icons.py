"""Render the app icon from its one source, resources/cardviewer.svg, in every format the
desktops want: PNGs for the Linux hicolor theme, a Windows `.ico` and a macOS `.icns`.

Qt draws the SVG (the same renderer the app uses at run time); Pillow writes the `.ico`
and `.icns`, which Qt cannot. Run with the project's environment:

    python packaging/make_icons.py [OUTPUT_FOLDER]      # default: build/icons
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "resources" / "cardviewer.svg"
ICON_NAME = "cardviewer"
"""The icon's name in the theme: the desktop entry's `Icon=` key."""

HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 20, 24, 32, 40, 48, 64, 128, 256)
"""What Windows picks from for the taskbar, Explorer's views and high-DPI screens."""
ICNS_SIZES = (16, 32, 64, 128, 256, 512, 1024)
"""Every size an `.icns` holds, 1024 being the 512 point icon at 2x."""


def render(svg: Path, sizes: Sequence[int]) -> dict[int, bytes]:
    """The SVG drawn at each size, as PNG bytes with a transparent background."""
    # A build machine may have no screen; drawing into images needs none.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QImageWriter, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not an SVG image Qt can draw")
    pngs: dict[int, bytes] = {}
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = QImageWriter(buffer, QByteArray(b"png"))
        if not writer.write(image):
            raise RuntimeError(f"the {size} px icon was not encoded: {writer.errorString()}")
        buffer.close()
        pngs[size] = bytes(data.data())
    return pngs


def write_hicolor(pngs: dict[int, bytes], svg: Path, theme: Path) -> list[Path]:
    """The freedesktop.org icon theme layout: `hicolor/NxN/apps/NAME.png` and `scalable`."""
    written = []
    for size in HICOLOR_SIZES:
        path = theme / f"{size}x{size}" / "apps" / f"{ICON_NAME}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pngs[size])
        written.append(path)
    scalable = theme / "scalable" / "apps" / f"{ICON_NAME}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    written.append(scalable)
    return written


def write_with_pillow(pngs: dict[int, bytes], sizes: Sequence[int], path: Path) -> Path:
    """One `.ico` or `.icns` (chosen by the suffix) holding each size as drawn, not scaled."""
    from PIL import Image

    images = [Image.open(io.BytesIO(pngs[size])).convert("RGBA") for size in sizes]
    largest = images[-1]
    fmt = {".ico": "ICO", ".icns": "ICNS"}[path.suffix]
    extra = {"sizes": [(size, size) for size in sizes]} if fmt == "ICO" else {}
    largest.save(path, format=fmt, append_images=images[:-1], **extra)
    return path


def make_icons(output: Path, svg: Path = SOURCE) -> list[Path]:
    """Write every icon file into `output`; returns the files written."""
    output.mkdir(parents=True, exist_ok=True)
    pngs = render(svg, sorted({*HICOLOR_SIZES, *ICO_SIZES, *ICNS_SIZES}))
    written = write_hicolor(pngs, svg, output / "hicolor")
    written.append(write_with_pillow(pngs, ICO_SIZES, output / f"{ICON_NAME}.ico"))
    written.append(write_with_pillow(pngs, ICNS_SIZES, output / f"{ICON_NAME}.icns"))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("output", nargs="?", type=Path, default=ROOT / "build" / "icons")
    args = parser.parse_args(argv)
    for path in make_icons(args.output):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
