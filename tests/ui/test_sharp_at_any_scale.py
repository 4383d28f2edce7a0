"""At any scale every icon and picture is drawn for the screen's pixels, never stretched.

Run in the suite at the scale of its screen; `tests/test_high_dpi.py` runs this file and
the clipping test again at 200 %, where a picture made for one pixel a point is blurred.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from cardviewer.app import app_icon
from cardviewer.ui.login.login_dialog import LoginDialog
from cardviewer.ui.main_window import MainWindow
from tests.ui.sign_ins import authenticate

WAIT = 10_000
POINTS = QSize(16, 16)
"""The size of a small icon, in points."""


def blurred(widget: QWidget, seen: list[str] | None = None) -> list[str]:
    """Icons and pictures in `widget` that have fewer pixels than the screen shows them at.

    The name of each one looked at goes to `seen`.
    """
    ratio = widget.devicePixelRatioF()
    found: list[str] = []
    looked = seen if seen is not None else []

    def icon_blurred(name: str, icon: QIcon) -> None:
        if icon.isNull():
            return
        looked.append(name)
        pixmap = icon.pixmap(POINTS, ratio)
        if pixmap.width() < round(POINTS.width() * ratio):
            found.append(f"{name}: {pixmap.width()} pixels for {POINTS.width()} points at {ratio}")

    for action in widget.findChildren(QAction):
        icon_blurred(f"action {action.text()!r}", action.icon())
    for button in widget.findChildren(QAbstractButton):
        if button.isVisible():
            icon_blurred(f"button {button.text() or button.objectName()!r}", button.icon())
    for label in widget.findChildren(QLabel):
        pixmap = label.pixmap()
        if not label.isVisible() or pixmap.isNull():
            continue
        looked.append(f"picture {label.objectName()!r}")
        if pixmap.devicePixelRatio() < ratio:
            found.append(f"picture {label.objectName()!r} drawn at {pixmap.devicePixelRatio()}")
    return found


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    return demo_window


def test_the_app_icon_has_the_pixels_of_any_screen(qapp) -> None:
    for ratio in (1.0, 1.5, 2.0, 3.0):
        assert app_icon().pixmap(QSize(48, 48), ratio).width() >= round(48 * ratio)


def test_the_sign_in_dialog_is_sharp(qtbot, qloop) -> None:
    dialog = LoginDialog(authenticate)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert blurred(dialog) == []


def test_the_main_window_with_a_card_is_sharp(window: MainWindow, qtbot, demo_server) -> None:
    with qtbot.waitSignal(window.pages.pageLoaded, timeout=WAIT):
        window.open_space(demo_server.space_id)
    window.table.setCurrentIndex(window.table.model().index(0, 2))
    qtbot.waitUntil(lambda: window.details_pane.card is not None, timeout=WAIT)
    seen: list[str] = []
    assert blurred(window, seen) == []
    assert {"action '&Refresh'", "action '&Open'"} <= set(seen), seen
