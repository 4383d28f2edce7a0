"""The error bar: shows a message, offers Retry and extra actions, closes itself."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

from cardviewer.ui.colour_scheme import READABLE, contrast, luminance
from cardviewer.ui.error_bar import CLOSE_MARK, INFORMATION, NEGATIVE, ErrorBar, tinted_background
from tests.ui.error_bars import action_buttons, looks_like_an_error, looks_like_information


@pytest.fixture
def bar(qtbot):
    widget = ErrorBar()
    qtbot.addWidget(widget)
    widget.resize(600, 60)
    return widget


def test_hidden_until_an_error_is_shown(bar):
    assert bar.isHidden()
    bar.show_error("Cannot reach the server.", "ConnectError('refused')")
    assert not bar.isHidden()
    assert bar.message == "Cannot reach the server."
    assert bar.detail == "ConnectError('refused')"


def test_messages_are_plain_text_never_markup(bar):
    bar.show_error("<b>bold</b> & <a href='x'>link</a>")
    assert bar.text_label.textFormat() == Qt.TextFormat.PlainText
    assert bar.message == "<b>bold</b> & <a href='x'>link</a>"


def test_retry_emits_and_hides(bar, qtbot):
    bar.show_error("The server is busy.")
    assert not bar.retry_button.isHidden()
    with qtbot.waitSignal(bar.retryRequested):
        qtbot.mouseClick(bar.retry_button, Qt.MouseButton.LeftButton)
    assert bar.isHidden()


def test_not_retryable_hides_the_retry_button(bar):
    bar.show_error("The file could not be written.", retryable=False)
    assert bar.retry_button.isHidden()
    bar.show_error("The server is busy.")
    assert not bar.retry_button.isHidden()


def test_close_button_hides_without_retrying(bar, qtbot):
    bar.show_error("The server is busy.")
    with qtbot.assertNotEmitted(bar.retryRequested):
        qtbot.mouseClick(bar.close_button, Qt.MouseButton.LeftButton)
    assert bar.isHidden()


def test_extra_actions_become_buttons_and_are_replaced_by_the_next_message(bar, qtbot):
    action = QAction("Sign in", bar)
    bar.show_error("Your session has ended.", retryable=False, actions=[action])
    [button] = action_buttons(bar)
    assert button.text() == "Sign in"
    with qtbot.waitSignal(action.triggered):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    bar.show_error("Another problem.")
    assert action_buttons(bar) == []


def test_information_looks_calmer_and_offers_no_retry(bar):
    bar.show_error("The server is busy.")
    assert looks_like_an_error(bar)
    action = QAction("Sign in", bar)
    bar.show_info("You are signed out.", actions=[action])
    assert looks_like_information(bar)
    assert bar.message == "You are signed out."
    assert bar.retry_button.isHidden()
    assert [b.text() for b in action_buttons(bar)] == ["Sign in"]
    bar.show_error("Another problem.")
    assert looks_like_an_error(bar)


def test_in_a_dark_palette_the_bar_is_dark_and_still_tinted(bar, qtbot):
    before = QGuiApplication.palette()
    dark = QPalette(QColor("#2d2d2d"), QColor("#353535"))  # button, window
    try:
        QApplication.setPalette(dark)
        qtbot.waitUntil(lambda: bar.palette().color(QPalette.ColorRole.Window) == QColor("#353535"))
        bar.show_error("The server is busy.")
        assert looks_like_an_error(bar)
        fill = bar.grab().toImage().pixelColor(bar.width() // 2, 3)
        assert luminance(fill) < 0.1
        assert contrast(dark.color(QPalette.ColorRole.WindowText), fill) >= READABLE
        bar.show_info("You are signed out.")
        assert looks_like_information(bar)
    finally:
        QApplication.setPalette(before)


@pytest.mark.parametrize("tint", [NEGATIVE, INFORMATION], ids=["error", "information"])
@pytest.mark.parametrize(
    ("window", "text"),
    [("#efefef", "#000000"), ("#202326", "#fcfcfc"), ("#353535", "#eeeeec")],
    ids=["light", "dark", "another dark"],
)
def test_the_tint_leaves_the_text_readable(tint, window, text):
    fill = tinted_background(QColor(window), QColor(text), tint)
    assert fill != QColor(window)
    assert contrast(QColor(text), fill) >= READABLE


def test_where_the_text_barely_reads_the_bar_is_tinted_less_or_not_at_all():
    text = QColor("#000000")
    for grey in ("#7a7a7a", "#858585", "#909090"):
        window = QColor(grey)
        fill = tinted_background(window, text, NEGATIVE)
        assert contrast(text, fill) >= min(READABLE, contrast(text, window))


def test_without_an_icon_from_the_desktop_the_close_button_shows_a_cross_in_the_text_colour(bar):
    if QIcon.hasThemeIcon(QIcon.ThemeIcon.WindowClose):
        assert not bar.close_button.icon().isNull()
    else:
        assert bar.close_button.text() == CLOSE_MARK
    assert bar.close_button.accessibleName() == "Close"


def test_tab_reaches_the_bars_buttons_as_they_are_read_and_its_picture_has_a_name(qtbot):
    """The buttons of a message come where the bar is, not after the rest of the window."""
    window = QWidget()
    qtbot.addWidget(window)
    layout = QVBoxLayout(window)
    before = QLineEdit(window)
    bar = ErrorBar(window)
    after = QLineEdit(window)
    for widget in (before, bar, after):
        layout.addWidget(widget)
    window.show()
    qtbot.waitExposed(window)
    bar.show_error("Went wrong", "", retryable=True, actions=[QAction("Sign In…", bar)])
    assert bar.icon_label.accessibleName() == "Error"
    order: list[QWidget] = [before]
    while len(order) < 6:
        step = order[-1].nextInFocusChain()
        while step is not None and not step.focusPolicy() & Qt.FocusPolicy.TabFocus:
            step = step.nextInFocusChain()
        assert step is not None
        order.append(step)
    (sign_in,) = action_buttons(bar)
    assert order == [before, sign_in, bar.retry_button, bar.close_button, after, before]
    bar.show_info("Signed out", actions=[])
    assert bar.icon_label.accessibleName() == "Note"


def test_hiding_an_error_leaves_a_note(bar):
    """Showing a synced copy clears an error about the copy before; being signed out,
    a note, holds for the copy too, with its Sign In button."""
    bar.show_info("You are signed out.")
    bar.hide_error()
    assert not bar.isHidden()
    bar.show_error("The local copy could not be read.")
    bar.hide_error()
    assert bar.isHidden()
