"""The toolbar: the space field and its actions, the e-mails check as saved, the end actions."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel

from cardviewer.services.settings import Settings
from cardviewer.ui.space_field import SpaceField
from cardviewer.ui.space_toolbar import SpaceToolbar
from cardviewer.ui.window_commands import ToolbarPlace


@pytest.fixture
def parts(qtbot) -> tuple[SpaceToolbar, QAction, QAction]:
    settings = Settings.load()
    settings.include_emails = True
    open_action, help_action = QAction("Open"), QAction("Help")
    toolbar = SpaceToolbar(settings, [open_action], [help_action])
    qtbot.addWidget(toolbar)
    for action in (open_action, help_action):
        action.setParent(toolbar)
    return toolbar, open_action, help_action


def test_the_field_comes_first_then_its_actions_then_the_check_then_the_end(parts):
    toolbar, open_action, help_action = parts
    actions = toolbar.actions()
    widgets = [toolbar.widgetForAction(action) for action in actions]
    field_at = next(i for i, w in enumerate(widgets) if isinstance(w, SpaceField))
    check_at = widgets.index(toolbar.include_emails_check.parentWidget())
    assert field_at < actions.index(open_action) < check_at < actions.index(help_action)
    assert actions[-1] is help_action


def test_the_label_leads_to_the_field(parts):
    toolbar, _, _ = parts
    (label,) = [w for w in toolbar.findChildren(QLabel) if w.buddy() is not None]
    assert label.text() == "S&pace:"
    assert label.buddy() is toolbar.space_field


def test_the_check_starts_as_saved_and_the_toolbar_stays_put(parts):
    toolbar, _, _ = parts
    assert toolbar.include_emails_check.isChecked()
    assert toolbar.include_emails_check.text() == "Include e-&mails"
    assert toolbar.windowTitle() == "Space"
    assert toolbar.objectName() == "spaceToolbar"
    assert not toolbar.isMovable()
    assert not toolbar.isFloatable()


@pytest.mark.usefixtures("language")
def test_every_command_stays_in_view_at_the_smallest_size_as_an_icon(demo_windows, qtbot):
    """Not behind the » menu, out of Tab's reach: icons only where the texts do not fit."""
    window = demo_windows()
    window.show()
    qtbot.waitExposed(window)
    toolbar = window.toolbar
    buttons = [toolbar.widgetForAction(a) for a in toolbar.actions() if not a.isSeparator()]

    window.resize(QSize(1, 1))
    qtbot.waitUntil(lambda: toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly)
    qtbot.waitUntil(lambda: all(button.isVisible() for button in buttons))
    for action in window.commands.toolbar_actions(ToolbarPlace.END):
        assert action.toolTip(), "an icon alone says what it does in its tooltip"

    window.resize(QSize(1180, 700))
    qtbot.waitUntil(
        lambda: toolbar.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    )
    assert all(button.isVisible() for button in buttons)
