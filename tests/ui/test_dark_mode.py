"""Dark mode: every colour the app chooses follows the palette, and every text reads well.

Each text is rendered as a person sees it, grabbed from its window, in the light
palette and in two dark ones: the app's own (`CARDVIEWER_COLOR_SCHEME=dark`, where the
platform cannot switch by itself) and one as a dark desktop hands it over (GNOME's
Adwaita dark, its placeholder colour left to Qt: the text at half strength). The text
pixel farthest from the background must stand out from it by WCAG AA's 4.5:1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QMargins, QRect
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPalette, QPixmap
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QLineEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from cardviewer.api.models import Card, parse_card
from cardviewer.demo import DemoServer, Fault
from cardviewer.services.avatar_loader import AvatarLoader
from cardviewer.ui.cards.card_details import CardDetailsPane
from cardviewer.ui.colour_scheme import SCHEME_VARIABLE, follow_colour_scheme
from cardviewer.ui.error_bar import ErrorBar
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.main_window import MainWindow
from cardviewer.ui.read_only_field import make_read_only
from cardviewer.ui.state_page import StatePage
from tests.ui.conftest import MakeDemoWindow
from tests.ui.sign_ins import authenticate

AA = 4.5
"""WCAG AA: the least contrast of text against its background."""
GRAPHIC = 3.0
"""WCAG's least contrast of a graphical object: an icon, the placeholder's figure on its disc."""
WAIT = 15_000
RGB = tuple[int, int, int]


# Contrast as WCAG 2 defines it, computed here from scratch


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(colour: RGB) -> float:
    red, green, blue = (_linear(c) for c in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: RGB, second: RGB) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def rgb(colour: QColor) -> RGB:
    return (colour.red(), colour.green(), colour.blue())


# What a person sees


def shown(widget: QWidget, area: QRect | None = None) -> QImage:
    """The pixels of `widget` (or of `area` in it) as its window paints them."""
    window = widget.window()
    rect = widget.rect() if area is None else area
    on_window = QRect(widget.mapTo(window, rect.topLeft()), rect.size())
    return window.grab(on_window).toImage().convertToFormat(QImage.Format.Format_RGB32)


def colours(image: QImage) -> Counter[RGB]:
    data = bytes(image.constBits())  # blue, green, red, alpha for each pixel
    return Counter((data[n + 2], data[n + 1], data[n]) for n in range(0, len(data), 4))


def background_of(image: QImage) -> RGB:
    """The colour most of the pixels have."""
    return colours(image).most_common(1)[0][0]


def text_contrast(image: QImage) -> float:
    """The contrast of the pixel farthest from the background against the background."""
    counts = colours(image)
    background = counts.most_common(1)[0][0]
    return max(contrast(colour, background) for colour in counts)


def text_area(edit: QLineEdit) -> QRect:
    """Where `edit` draws its text or placeholder: clear of its frame, buttons and cursor."""
    text = edit.text() or edit.placeholderText()
    width = edit.fontMetrics().horizontalAdvance(text)
    cursor = edit.cursorRect()
    # The cursor stands after the text, or before the placeholder when there is none.
    left = cursor.left() - width if edit.text() else cursor.right() + 1
    inside = edit.rect().marginsRemoved(QMargins(3, 3, 3, 3))
    return QRect(left, inside.top(), width, inside.height()).intersected(inside)


class Readings:
    """The contrast of each text looked at, and the ones that read badly."""

    def __init__(self) -> None:
        self.seen: dict[str, float] = {}

    def label(self, name: str, label: QLabel) -> None:
        assert label.text(), f"{name}: the label shows no text"
        self.seen[name] = text_contrast(shown(label))

    def edit(self, name: str, edit: QLineEdit) -> None:
        self.seen[name] = text_contrast(shown(edit, text_area(edit)))

    def labels(self, name: str, widget: QWidget) -> None:
        """Every label with text shown in `widget`, among them some in the muted colour."""
        shown_labels = [
            label for label in widget.findChildren(QLabel) if label.isVisible() and label.text()
        ]
        muted = QPalette.ColorRole.PlaceholderText
        assert any(label.foregroundRole() == muted for label in shown_labels), name
        for label in shown_labels:
            self.label(f"{name}: “{label.text()}”", label)

    def below(self, minimum: float = AA) -> list[str]:
        return [f"{name}: {ratio:.2f}:1" for name, ratio in self.seen.items() if ratio < minimum]


# The palettes

DARK_WINDOW = QColor("#353535")
"""The window colour of the dark desktop."""


def adwaita_dark() -> QPalette:
    """A dark desktop's palette (GNOME's Adwaita dark), placeholders left to Qt."""
    palette = QPalette(QColor("#2d2d2d"), DARK_WINDOW)  # button, window
    colours_of = {
        QPalette.ColorRole.Window: "#353535",
        QPalette.ColorRole.WindowText: "#eeeeec",
        QPalette.ColorRole.Base: "#2d2d2d",
        QPalette.ColorRole.AlternateBase: "#323232",
        QPalette.ColorRole.Text: "#eeeeec",
        QPalette.ColorRole.Button: "#2d2d2d",
        QPalette.ColorRole.ButtonText: "#eeeeec",
        QPalette.ColorRole.Highlight: "#15539e",
        QPalette.ColorRole.HighlightedText: "#ffffff",
    }
    for role, name in colours_of.items():
        palette.setColor(role, QColor(name))
    text = QColor("#eeeeec")
    text.setAlpha(128)  # as Qt derives it
    palette.setColor(QPalette.ColorRole.PlaceholderText, text)
    return palette


SCHEMES = ["light", "dark", "dark desktop"]


@pytest.fixture(params=SCHEMES)
def scheme(
    request: pytest.FixtureRequest, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The app following a light or a dark scheme, as it starts; as it was after the test."""
    name: str = request.param
    if name == "dark":
        monkeypatch.setenv(SCHEME_VARIABLE, "dark")
    else:
        monkeypatch.delenv(SCHEME_VARIABLE, raising=False)
    with follow_colour_scheme(qapp):
        if name == "dark desktop":
            QApplication.setPalette(adwaita_dark())  # the desktop turned dark
        yield name


def is_dark() -> bool:
    palette = QGuiApplication.palette()
    return luminance(rgb(palette.color(QPalette.ColorRole.Window))) < 0.2


# The main window


@pytest.fixture
def window(demo_windows: MakeDemoWindow, scheme: str) -> MainWindow:
    window = demo_windows()
    window.resize(1100, 700)
    return window


def test_the_main_window_reads_well_in_each_scheme(
    window: MainWindow, qtbot: QtBot, demo_server: DemoServer, scheme: str
) -> None:
    assert is_dark() == (scheme != "light")
    seen = Readings()

    def load(action: Callable[[], object]) -> None:
        with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
            action()

    seen.edit("the space field's placeholder", window.space_edit)
    seen.labels("no space open", window)

    load(lambda: window.open_space(demo_server.space_id))
    seen.edit("the filter's placeholder", window.filter_edit)  # greyed out before: no cards
    window.table.setCurrentIndex(window.proxy.index(0, 1))
    seen.labels("the details pane", window.details_pane)
    icons = Readings()
    open_button = window.toolbar.widgetForAction(window.commands.actions["open"])
    buttons: list[tuple[str, QWidget | None]] = [
        ("Open", open_button),
        ("the next page", window.page_bar.next_button),
        ("the last page", window.page_bar.last_button),
    ]
    for name, button in buttons:
        assert isinstance(button, QAbstractButton), name
        assert button.isEnabled(), name
        beside_text = QRect(0, 0, button.iconSize().width() + 4, button.height())  # the icon
        icons.seen[name] = text_contrast(shown(button, beside_text.intersected(button.rect())))

    with qtbot.waitSignal(window.pages.loadFailed, timeout=WAIT):
        demo_server.faults.inject(Fault.HTML_502)
        window.refresh()
    bar = window.error_bar
    qtbot.waitUntil(bar.isVisible)
    seen.label("the error bar's error", bar.text_label)
    bar.show_info("You are signed out. Sign in to open other pages and spaces.")
    seen.label("the error bar's note", bar.text_label)
    bar.hide()

    window.filter_edit.setText("no card is called so")
    seen.labels("no card matches", window.stack)
    window.filter_edit.clear()
    load(lambda: window.go_to_page(999))
    seen.labels("no cards on the page", window.stack)

    assert not seen.below(), "\n".join(seen.below())
    assert not icons.below(GRAPHIC), "\n".join(icons.below(GRAPHIC))


# The sign-in dialog


def test_the_sign_in_dialog_reads_well_in_each_scheme(qtbot: QtBot, qloop, scheme: str) -> None:
    dialog = LoginDialog(authenticate)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    seen = Readings()
    for name, edit in [
        ("server", dialog.server_edit),
        ("e-mail", dialog.email_edit),
        ("password", dialog.password_edit),
    ]:
        seen.edit(f"the {name} field's placeholder", edit)
    seen.labels("the heading", dialog)

    dialog.server_edit.setText("https://proxy.example.com")  # answers with a proxy's error
    dialog.email_edit.setText("ada@example.com")
    dialog.password_edit.setText("a password")
    dialog.submit()
    qtbot.waitUntil(lambda: bool(dialog.message), timeout=WAIT)
    seen.label("the message", dialog.message_label)
    assert not seen.below(), "\n".join(seen.below())


def test_a_read_only_server_reads_as_a_value_on_the_window(qtbot: QtBot, scheme: str) -> None:
    dialog = LoginDialog(authenticate, server="https://cards.example.com", server_locked=True)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    field = shown(
        dialog.server_edit, dialog.server_edit.rect().marginsRemoved(QMargins(3, 3, 3, 3))
    )
    window = rgb(dialog.palette().color(QPalette.ColorRole.Window))
    assert background_of(field) == window
    assert text_contrast(shown(dialog.server_edit, text_area(dialog.server_edit))) >= AA


# The avatar placeholder


def placeholder_colours(pixmap: QPixmap) -> tuple[RGB, RGB]:
    """The placeholder's disc (above the head) and figure (the middle of the head)."""
    image = pixmap.toImage()
    side = image.width()
    disc = image.pixelColor(side // 2, side * 6 // 64)
    figure = image.pixelColor(side // 2, side * 25 // 64)
    return rgb(disc), rgb(figure)


def test_the_avatar_placeholder_is_drawn_in_the_palette_s_colours(
    qtbot: QtBot, arun, scheme: str
) -> None:
    loader = AvatarLoader(size=64, use_disk_cache=False)
    try:
        disc, figure = placeholder_colours(loader.placeholder())
    finally:
        arun(loader.aclose())
    palette = QGuiApplication.palette()
    base = rgb(palette.color(QPalette.ColorRole.Base))
    text = rgb(palette.color(QPalette.ColorRole.Text))
    # Nearer the background than the text: a calm disc, dark in a dark palette.
    assert contrast(disc, base) < contrast(disc, text)
    assert contrast(figure, disc) >= GRAPHIC


# Switching while the app runs


def details_card() -> Card:
    return parse_card(
        {
            "uuid": "c1",
            "avatar": {"uuid": None, "src": "https://cdn.example/avatars/default.png"},
            "username": "ada",
            "display_name": "Ada Lovelace",
            "position": "Analyst",
        }
    )


def test_a_scheme_changed_while_the_app_runs_shows_at_once(
    qtbot: QtBot, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SCHEME_VARIABLE, raising=False)
    with follow_colour_scheme(qapp):
        host = QWidget()
        qtbot.addWidget(host)
        layout = QVBoxLayout(host)
        bar = ErrorBar(host)
        page = StatePage(QPixmap(16, 16), host)
        page.set_text("No space open", "Enter a space id and press Open.")
        field = QLineEdit("https://cards.example.com", host)
        make_read_only(field)
        pane = CardDetailsPane(None, host)
        pane.set_card(details_card())
        for widget in (bar, page, field, pane):
            layout.addWidget(widget)
        host.resize(600, 600)
        host.show()
        qtbot.waitExposed(host)
        bar.show_error("The server is busy.")

        QApplication.setPalette(adwaita_dark())  # the desktop turns dark
        qtbot.waitUntil(lambda: pane.palette().color(QPalette.ColorRole.Window) == DARK_WINDOW)
        seen = Readings()
        seen.label("the error bar", bar.text_label)
        seen.label("the empty page", page.text_label)
        seen.labels("the details pane", pane)
        assert not seen.below(), "\n".join(seen.below())
        assert field.palette().color(QPalette.ColorRole.Base) == DARK_WINDOW
    assert not is_dark()  # left as it was


def test_the_details_picture_and_the_sign_in_heading_follow_a_new_palette(
    qtbot: QtBot, qapp: QApplication, arun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SCHEME_VARIABLE, raising=False)
    avatars = AvatarLoader(size=64, use_disk_cache=False)
    with follow_colour_scheme(qapp):
        pane = CardDetailsPane(avatars)
        qtbot.addWidget(pane)
        pane.set_card(details_card())  # the platform's default picture: the placeholder
        dialog = LoginDialog(authenticate)
        qtbot.addWidget(dialog)
        for window in (pane, dialog):
            window.show()
            qtbot.waitExposed(window)

        QApplication.setPalette(adwaita_dark())  # the desktop turns dark
        qtbot.waitUntil(lambda: pane.palette().color(QPalette.ColorRole.Window) == DARK_WINDOW)
        disc, _figure = placeholder_colours(pane.avatar_label.pixmap())
        assert luminance(disc) < 0.1
        seen = Readings()
        seen.labels("the sign-in heading", dialog)
        assert not seen.below(), "\n".join(seen.below())
    arun(avatars.aclose())
