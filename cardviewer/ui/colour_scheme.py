"""Colours that follow the desktop's scheme, light or dark, and stay readable.

The app chooses no colour of its own: each one is taken from the palette or mixed
from its colours, when it is painted or again when the palette changes, so a window
follows the desktop when it turns dark or light while the app runs.

Muted text (the placeholders of the fields, the second line of an empty page, the
titles in the details pane, the hints in Preferences) is drawn in the palette's
placeholder colour. Qt makes that colour the text at half strength, which on a
window's grey reads at about 3.5:1 in the light palette and worse in many dark ones,
below the 4.5:1 that WCAG AA asks of text. `ReadableMutedText` raises it, for the
whole app, just as far as needed (with a margin for antialiased strokes), and again
whenever the palette changes.

`CARDVIEWER_COLOR_SCHEME=dark` (or `light`) asks for a scheme whatever the desktop's;
where the platform cannot switch, the app's own palette of that scheme is used.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

SCHEME_VARIABLE = "CARDVIEWER_COLOR_SCHEME"
"""The environment variable that asks for `dark` or `light`, whatever the desktop's."""
TEXT_CONTRAST = 4.5
"""WCAG AA's least contrast of text against its background."""
READABLE = 5.0
"""What the app makes its own text colours for: enough over `TEXT_CONTRAST` that thin
strokes, which antialiasing paints paler than their colour, still reach it."""
STEPS = 50
"""How finely `readable` moves a colour toward the text colour."""

_GROUPS = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive)
"""The groups whose text must read well; disabled text need not (WCAG leaves it out)."""
_ROLE = QPalette.ColorRole


# Colour arithmetic, as WCAG 2 defines it


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(colour: QColor) -> float:
    """WCAG's relative luminance of the opaque `colour`: 0 for black, 1 for white."""
    red, green, blue = (_linear(c) for c in (colour.redF(), colour.greenF(), colour.blueF()))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: QColor, second: QColor) -> float:
    """WCAG's contrast ratio of two opaque colours, from 1 (the same) to 21."""
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def mix(base: QColor, tint: QColor, amount: float) -> QColor:
    """`amount` of `tint` over `base` (0 → base, 1 → tint), opaque."""
    return QColor.fromRgbF(
        base.redF() + (tint.redF() - base.redF()) * amount,
        base.greenF() + (tint.greenF() - base.greenF()) * amount,
        base.blueF() + (tint.blueF() - base.blueF()) * amount,
    )


def over(colour: QColor, background: QColor) -> QColor:
    """The opaque colour that `colour`, perhaps translucent, shows on `background`."""
    return mix(background, QColor(colour.red(), colour.green(), colour.blue()), colour.alphaF())


def readable(
    colour: QColor,
    backgrounds: Iterable[QColor],
    towards: QColor,
    minimum: float = READABLE,
) -> QColor:
    """`colour` itself if it reads at `minimum` on every background, else the first mix
    of it with `towards` (the palette's text colour) that does.

    Where not even `towards` reads that well, the mix that reads best is returned.
    """
    grounds = list(backgrounds)
    if not grounds:
        return colour

    def worst(candidate: QColor) -> float:
        return min(contrast(over(candidate, ground), ground) for ground in grounds)

    if worst(colour) >= minimum:
        return colour
    start = over(colour, grounds[0])
    best, best_contrast = start, worst(start)
    for step in range(1, STEPS + 1):
        candidate = mix(start, towards, step / STEPS)
        reached = worst(candidate)
        if reached >= minimum:
            return candidate
        if reached > best_contrast:
            best, best_contrast = candidate, reached
    return best


def placeholder_from_text(palette: QPalette, group: QPalette.ColorGroup) -> QColor:
    """The placeholder colour Qt derives from a palette's text: the text at half strength."""
    text = palette.color(group, _ROLE.Text)  # a copy
    text.setAlpha(128)
    return text


# Muted text for the whole app


class ReadableMutedText(QObject):
    """Keeps the application palette's placeholder colour readable on fields and windows.

    The palette's own colour is kept where it reads at `READABLE` (5:1) on both the
    fields' background (Base) and the window's; else it is moved toward the text colour just
    far enough. Done again whenever the application's palette changes (the desktop
    turned dark, say); after such a change the colour starts from Qt's own (the text
    at half strength), as the desktop's new one is hidden behind the one set here.
    """

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        self._updating = False
        self._applied: dict[QPalette.ColorGroup, tuple[int, tuple[int, ...]]] = {}
        app.paletteChanged.connect(self._update)
        self._update()

    def stop(self) -> None:
        """Leave the palette to others from now on (what was set stays set)."""
        self._app.paletteChanged.disconnect(self._update)

    def _update(self) -> None:
        if self._updating:
            return
        palette = QGuiApplication.palette()  # a copy
        changed = False
        for group in _GROUPS:
            current = palette.color(group, _ROLE.PlaceholderText)
            surroundings = _surroundings(palette, group)
            applied = self._applied.get(group)
            start = current
            if applied is not None and applied[0] == current.rgba():
                if applied[1] == surroundings:
                    continue  # set here, for these colours: nothing to do
                start = placeholder_from_text(palette, group)
            grounds = (palette.color(group, _ROLE.Base), palette.color(group, _ROLE.Window))
            wanted = readable(start, grounds, palette.color(group, _ROLE.Text))
            if wanted.rgba() == current.rgba():
                self._applied.pop(group, None)  # the palette's own, following it
                continue
            palette.setColor(group, _ROLE.PlaceholderText, wanted)
            self._applied[group] = (wanted.rgba(), surroundings)
            changed = True
        if changed:
            self._updating = True
            try:
                QApplication.setPalette(palette)
            finally:
                self._updating = False


def _surroundings(palette: QPalette, group: QPalette.ColorGroup) -> tuple[int, ...]:
    """What a muted colour depends on: the text colour and the two backgrounds."""
    roles = (_ROLE.Text, _ROLE.Base, _ROLE.Window)
    return tuple(palette.color(group, role).rgba() for role in roles)


# Asking for a scheme


def dark_palette() -> QPalette:
    """The app's own dark palette, for where the platform cannot switch to dark itself.

    Every text colour reads at 4.5:1 or more on the background it is drawn on,
    selected text on the selection included.
    """
    palette = QPalette(QColor("#2f3336"), QColor("#202326"))  # button, window
    colours = {
        _ROLE.WindowText: "#fcfcfc",
        _ROLE.Button: "#2f3336",
        _ROLE.Light: "#4a5055",
        _ROLE.Midlight: "#3b4045",
        _ROLE.Mid: "#24272a",
        _ROLE.Dark: "#141618",
        _ROLE.Shadow: "#000000",
        _ROLE.Text: "#fcfcfc",
        _ROLE.BrightText: "#ffffff",
        _ROLE.ButtonText: "#fcfcfc",
        _ROLE.Base: "#2b2f33",
        _ROLE.Window: "#202326",
        _ROLE.AlternateBase: "#32373c",
        _ROLE.Highlight: "#2c6fa8",
        _ROLE.HighlightedText: "#ffffff",
        _ROLE.Link: "#5aa9ee",
        _ROLE.LinkVisited: "#b48ad6",
        _ROLE.ToolTipBase: "#31363b",
        _ROLE.ToolTipText: "#fcfcfc",
        _ROLE.PlaceholderText: "#a1a9b1",
        _ROLE.Accent: "#2c6fa8",
    }
    for role, name in colours.items():
        palette.setColor(role, QColor(name))
    disabled = QColor("#7a7f85")
    for role in (_ROLE.WindowText, _ROLE.Text, _ROLE.ButtonText, _ROLE.PlaceholderText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    palette.setColor(QPalette.ColorGroup.Disabled, _ROLE.Highlight, QColor("#3b4045"))
    return palette


def request_scheme(app: QApplication, scheme: str) -> bool:
    """Show `scheme` ("dark" or "light") from now on; False for anything else.

    Where the platform cannot switch, the Fusion style paints with a palette of it.
    """
    if scheme.lower() not in ("dark", "light"):
        return False
    # Imported only now: setting up `Qt` (all of its enums) is work a start without the
    # variable leaves for later, after the first window has painted.
    from PySide6.QtCore import Qt

    dark = scheme.lower() == "dark"
    wanted = Qt.ColorScheme.Dark if dark else Qt.ColorScheme.Light
    hints = QGuiApplication.styleHints()
    hints.setColorScheme(wanted)
    if hints.colorScheme() != wanted:
        app.setStyle("Fusion")  # paints with the palette on every platform
        QApplication.setPalette(dark_palette() if dark else app.style().standardPalette())
    return True


@contextlib.contextmanager
def follow_colour_scheme(app: QApplication) -> Iterator[ReadableMutedText]:
    """Within: the scheme asked for in the environment, if any, and readable muted text.

    On leaving, the palette and style are as they were.
    """
    palette = QGuiApplication.palette()  # a copy
    scheme = os.environ.get(SCHEME_VARIABLE, "")
    # Only where a scheme is asked for: PySide sets up the Python type of `QStyle`, all
    # of its enums, the first time a style is touched; some 10 ms before the first
    # window of every start, for nothing.
    style = app.style().name() if scheme else ""
    requested = request_scheme(app, scheme)
    keeper = ReadableMutedText(app)
    try:
        yield keeper
    finally:
        keeper.stop()
        keeper.setParent(None)
        if requested:
            QGuiApplication.styleHints().unsetColorScheme()
            app.setStyle(style)
        QApplication.setPalette(palette)
